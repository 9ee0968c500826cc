// RouterService/GetRouteHealth: what this replica learned of each route of a capability from the
// outcome stream (every replica replays the same window before serving, so they answer alike).
import type { CatalogCache } from "@agentic/clients";
import { callDeadlineMs, type UnaryHandler } from "@agentic/platform";
import type { GetRouteHealthRequest, GetRouteHealthResponse, RouteHealth as RouteHealthMessage } from "@agentic/proto/router/v1";
import { requireFields } from "@agentic/ranking/domain";
import type { RouteHealth, RouteHealthBook } from "@agentic/ranking/domain";

export interface GetRouteHealthDeps {
  catalog: Pick<CatalogCache, "capability">;
  routeHealth: RouteHealthBook;
  dependencyDeadlineMs: number;
}

export function getRouteHealthHandler(deps: GetRouteHealthDeps): UnaryHandler<GetRouteHealthRequest, GetRouteHealthResponse> {
  return async (req, ctx) => {
    requireFields(req, ["domainKey", "capabilityId"], "GetRouteHealthRequest");
    const deadlineMs = callDeadlineMs(deps.dependencyDeadlineMs, ctx.remainingMs());
    const entry = await deps.catalog.capability(req.domainKey, req.capabilityId, { deadlineMs });
    const now = Date.now();
    return { routes: entry.routes.map((r) => healthMessage(r.routeKey, deps.routeHealth.get(r.routeKey, now))) };
  };
}

/** One route's health on the wire; a route without outcomes reports 0 observations and a closed breaker. */
export function healthMessage(routeKey: string, health: RouteHealth | undefined): RouteHealthMessage {
  const message: RouteHealthMessage = { routeKey, breakerState: health?.breaker ?? "closed", observations: health?.calls ?? 0 };
  if (!health) return message;
  if (health.calls > 0) message.successRate = health.successRate;
  if (health.p50LatencyMs !== undefined) message.p50Ms = health.p50LatencyMs;
  if (health.p95LatencyMs !== undefined) message.p95Ms = health.p95LatencyMs;
  if (health.lastFailureAtMs !== undefined) message.lastFailureAt = new Date(health.lastFailureAtMs).toISOString();
  return message;
}
