// Who may call each RouterService RPC, checked on every call against the caller's verified identity
// (packages/platform/src/grpc/access.ts); an RPC missing here is refused to everyone. The executor is
// not a caller: it ranks an execute and reads a stored recommendation in process (packages/ranking).
import type { AccessTable } from "@agentic/platform";

export const ROUTER_ACCESS: AccessTable = {
  // The edge (POST .../recommend).
  Recommend: ["gateway"],
  // The edge may (no route of it reads one today: the executor reads the shared bucket itself).
  GetRecommendation: ["gateway"],
  // The edge (GET .../routes shows each route's live health).
  GetRouteHealth: ["gateway"],
  // The edge (POST /route and POST /domains/{domainKey}/route).
  RouteTask: ["gateway"],
  // The edge (GET /capabilities?q= and GET /routes?q=: the catalog's search box).
  FindCapabilities: ["gateway"],
};
