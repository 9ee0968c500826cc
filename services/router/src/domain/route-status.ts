// The one definition of a live route, shared by reasons and feasibility.
import type { Route } from "@agentic/proto/catalog/v1";

/** Live: status "live" and not execution-gated (the catalog's own definition). */
export function isLiveRoute(route: Pick<Route, "status" | "executionGated">): boolean {
  return route.status === "live" && !route.executionGated;
}
