// The explained routing of an execution: the attempts it made and, for every other route of the
// capability, why it was not tried. The planner names the routes it left out, the attempt runner the
// ones it never reached; the answer, the usage item (as JSON) and a replay all carry the same decision.
import type { Route } from "@agentic/proto/catalog/v1";
import type { DecisionAttempt, ExecutionAttempt, NotTriedRoute, RouteDecision } from "@agentic/proto/executor/v1";

/** Why a route was not tried, one stable code each. */
export type NotTriedReason =
  /** A routeKey or provider pin chose another route. */
  | "pinned_elsewhere"
  /** allowFallback: false, and another route was chosen. */
  | "fallback_off"
  /** Its price (or the most a per-token call can cost) is above maxPriceCredits. */
  | "over_max_price"
  /** The router's breaker for it is open (recent failures). */
  | "breaker_open"
  /** It lacks a feature the body asks for. */
  | "missing_feature"
  /** The router refused it for another reason (its blocking requirements say which). */
  | "router_blocked"
  /** The catalog does not let it run (gated, bring-your-own, redirect). */
  | "gated"
  /** It is not live yet (planned or pending). */
  | "planned"
  /** This deployment cannot run it (no rail or adapter configured). */
  | "unavailable"
  /** It cannot take this input (another model, a resource it does not use, a value it cannot send). */
  | "input_not_served"
  /** The caller's share of its vendor quota (or the whole quota) is spent this window. */
  | "vendor_quota"
  /** The wallet could not cover it, and a cheaper route was tried instead. */
  | "credits_required"
  /** Fallback stopped before it (a route served, or a failure that must not fall back). */
  | "not_reached";

/** Router blocking requirements that have a reason of their own. */
const ROUTER_REASONS: Readonly<Record<string, NotTriedReason>> = {
  ROUTE_UNHEALTHY: "breaker_open",
  FEATURE_UNSUPPORTED: "missing_feature",
  OVER_MAX_PRICE: "over_max_price",
};

export function notTried(route: Route, reason: NotTriedReason, detail: string): NotTriedRoute {
  return { routeKey: route.routeKey, provider: route.providerKey, reason, detail };
}

/** The reason a route the router blocked is left out, from its blocking requirements. */
export function routerReason(blocks: readonly string[]): NotTriedReason {
  for (const block of blocks) {
    const reason = ROUTER_REASONS[block];
    if (reason) return reason;
  }
  return "router_blocked";
}

/** One attempt as the decision shows it; `errorCode` is the failed attempt's usage error code. */
export function decisionAttempt(a: ExecutionAttempt, errorCode?: string): DecisionAttempt {
  return {
    routeKey: a.routeKey,
    provider: a.provider,
    outcome: a.ok ? "ok" : a.errorKind,
    latencyMs: Math.round(a.latencyMs),
    ...(errorCode !== undefined ? { errorCode } : {}),
  };
}

/** The decision of an execution that ended on `servedRouteKey` ("" when none served). */
export function routeDecision(
  servedRouteKey: string,
  attempts: readonly DecisionAttempt[],
  skipped: readonly NotTriedRoute[],
): RouteDecision {
  return { servedRouteKey, attempts: [...attempts], notTried: [...skipped] };
}
