// What the catalog says of a route's status, as feasibility and reasons read it. Whether a route can
// run is decided once, by the catalog, and carried on the route as `readiness`; this file only reads
// it. A route without readiness (a catalog that does not say) is not executable: ROUTE_PENDING.
import type { Route, RouteReadiness } from "@agentic/proto/catalog/v1";

type StatusFacts = Pick<Route, "readiness" | "executionGated">;

/** Fail closed: no readiness on the route reads as not executable, pending. */
const UNKNOWN: RouteReadiness = { executable: false, blockedBy: "ROUTE_PENDING", reason: "the catalog does not say it is ready" };

/** The catalog's readiness of `route`. */
export function readinessOf(route: Pick<Route, "readiness">): RouteReadiness {
  return route.readiness ?? UNKNOWN;
}

/** Not live yet in the catalog (feasibility: ROUTE_PENDING). */
export function isPendingRoute(route: Pick<Route, "readiness">): boolean {
  return readinessOf(route).blockedBy === "ROUTE_PENDING";
}

/**
 * Mapped, but the catalog gates its execution (feasibility: CAPABILITY_GATED). The catalog names one
 * block, pending before gated; a route that is both stays listed with both, as the router lists every
 * applicable block (the route is not executable either way).
 */
export function isGatedRoute(route: StatusFacts): boolean {
  const { blockedBy } = readinessOf(route);
  return blockedBy === "CAPABILITY_GATED" || (blockedBy === "ROUTE_PENDING" && route.executionGated);
}

/**
 * Live: neither pending nor gated, so listed as available (the catalog's own meaning, which its
 * starting prices use). A live redirect or byo route is live though not executable: feasibility
 * blocks those by their route mode.
 */
export function isLiveRoute(route: StatusFacts): boolean {
  return !isPendingRoute(route) && !isGatedRoute(route);
}
