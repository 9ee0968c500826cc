// The one definition of a live route, shared by reasons and feasibility: a route is live when it is
// neither pending (catalog status other than "live") nor execution-gated.
import type { Route } from "@agentic/proto/catalog/v1";

/** Not live yet in the catalog: its status is anything but "live" (feasibility: ROUTE_PENDING). */
export function isPendingRoute(route: Pick<Route, "status">): boolean {
  return route.status !== "live";
}

/** Mapped, but the catalog gates its execution (feasibility: CAPABILITY_GATED). */
export function isGatedRoute(route: Pick<Route, "executionGated">): boolean {
  return route.executionGated;
}

/** Live: status "live" and not execution-gated (the catalog's own definition). */
export function isLiveRoute(route: Pick<Route, "status" | "executionGated">): boolean {
  return !isPendingRoute(route) && !isGatedRoute(route);
}
