// Whether a route can be executed now, decided here once and carried on every Route as `readiness`:
// the router's feasibility and the executor's plan read it and never decide it again.
import type { Route, RouteReadiness } from "@agentic/proto/catalog/v1";

/** What readiness is decided from. */
export type ReadinessFacts = Pick<Route, "status" | "executionGated" | "routeMode" | "ownedResource">;

/**
 * Executable when the route is live, not execution-gated and brokered on our credentials (managed, or
 * byo on a resource the caller acquired through us); otherwise the first of these that applies blocks
 * it, in the blocking-requirement vocabulary.
 */
export function routeReadiness(route: ReadinessFacts): RouteReadiness {
  if (route.status !== "live") return blocked("ROUTE_PENDING", `the route is ${route.status}`);
  if (route.executionGated) return blocked("CAPABILITY_GATED", "its execution is gated");
  if (route.routeMode === "redirect") return blocked("REDIRECT_NOT_BROKERED", "it is a redirect, not brokered by Agentic API");
  // The caller's resource lives on our vendor account (bought through us): we run it, for its owner.
  if (route.routeMode === "byo" && route.ownedResource) return { executable: true, blockedBy: "", reason: "" };
  if (route.routeMode === "byo") {
    return blocked("BYO_CREDENTIALS_REQUIRED", "it runs on your own provider account, which Agentic API cannot hold yet");
  }
  return { executable: true, blockedBy: "", reason: "" };
}

/**
 * Live: status "live" and not execution-gated, so listed as available. Starting prices, enabled
 * providers and live counts use it. It is wider than executable: a live redirect or byo route is
 * available to its caller (on the provider, or on their own account) though the executor does not
 * run it, and counting it keeps every published price and provider list as it was.
 */
export function isLiveRoute(route: Pick<Route, "status" | "executionGated">): boolean {
  return route.status === "live" && !route.executionGated;
}

function blocked(blockedBy: string, reason: string): RouteReadiness {
  return { executable: false, blockedBy, reason };
}
