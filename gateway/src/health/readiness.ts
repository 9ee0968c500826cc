// What /readyz answers: whether this gateway pod can serve, which is not whether every backend is up.
// A backend outage degrades only the routes that need that backend (they answer 503 with
// Retry-After), so it must not take the pod out of the load balancer: the free catalog would go dark
// with it. The pod cannot serve when its catalog path cannot answer: the catalog service does not
// answer SERVING and the catalog's answers are not in the gateway's memory either (a pod that has
// never read them). Then no route answers anything useful, and the load balancer should pick
// another pod.
import type { BackendState } from "./backend-monitor";

/** ok: every backend answers; degraded: the pod serves, some routes answer 503; unavailable: the pod cannot serve. */
export type PodStatus = "ok" | "degraded" | "unavailable";

export interface ReadinessAnswer {
  httpStatus: 200 | 503;
  body: {
    status: PodStatus;
    /** Each watched backend's last health check. */
    checks: Record<string, BackendState>;
    /** Where the catalog answers come from: the catalog service, the gateway's memory (catalog down), or nowhere. */
    catalog: "live" | "from memory" | "unavailable";
  };
}

/**
 * The readiness of a gateway given its backends' `checks` and whether the catalog's answers are in
 * its memory. A gateway that does not watch the catalog (a test without one) counts it as live.
 */
export function readinessOf(checks: Record<string, BackendState>, catalogInMemory: boolean): ReadinessAnswer {
  const catalogLive = (checks.catalog ?? "ok") === "ok";
  const catalog = catalogLive ? "live" : catalogInMemory ? "from memory" : "unavailable";
  const everyBackendOk = Object.values(checks).every((state) => state === "ok");
  const status: PodStatus = catalog === "unavailable" ? "unavailable" : everyBackendOk ? "ok" : "degraded";
  return { httpStatus: status === "unavailable" ? 503 : 200, body: { status, checks, catalog } };
}
