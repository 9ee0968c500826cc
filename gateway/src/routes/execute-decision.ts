// The explained routing of an execute or a quote as the REST body shows it (`decision`), and its short
// form for the Agentic-Route-Decision response header, so a client sees how the route was chosen
// without reading the body.
import type { RouteDecision } from "@agentic/proto/executor/v1";

export const ROUTE_DECISION_HEADER = "Agentic-Route-Decision";

/** The REST `decision`: the served route, the attempts in order, and every route not tried with why. */
export function toDecision(d: RouteDecision | undefined) {
  return {
    servedRouteKey: d?.servedRouteKey ?? "",
    attempts: (d?.attempts ?? []).map((a) => ({
      routeKey: a.routeKey,
      provider: a.provider,
      outcome: a.outcome,
      latencyMs: a.latencyMs,
      ...(a.errorCode ? { errorCode: a.errorCode } : {}),
    })),
    notTried: (d?.notTried ?? []).map((n) => ({ routeKey: n.routeKey, provider: n.provider, reason: n.reason, detail: n.detail })),
  };
}

/** `served=<routeKey>; tried=<attempts>; skipped=<routes not tried>`. */
export function decisionHeader(d: ReturnType<typeof toDecision>): string {
  return `served=${d.servedRouteKey}; tried=${d.attempts.length}; skipped=${d.notTried.length}`;
}
