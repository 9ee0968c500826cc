// Who may call each RouterService RPC, checked on every call against the caller's verified identity
// (packages/platform/src/grpc/access.ts); an RPC missing here is refused to everyone.
import type { AccessTable } from "@agentic/platform";

export const ROUTER_ACCESS: AccessTable = {
  // The edge (POST .../recommend) and the executor (route choice before it runs).
  Recommend: ["gateway", "executor"],
  // The executor (an execute that names a recommendationId pays the route it ranked) and the edge.
  GetRecommendation: ["gateway", "executor"],
  // The edge (GET .../routes shows each route's live health).
  GetRouteHealth: ["gateway", "executor"],
  // The edge (POST /route and POST /domains/{domainKey}/route).
  RouteTask: ["gateway"],
};
