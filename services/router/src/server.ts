// Builds the router gRPC server (RouterService + health); binding is the caller's job.
import type { Server } from "@grpc/grpc-js";
import { createGrpcServer, guardService, unary, type Health, type TokenVerifier } from "@agentic/platform";
import { RouterServiceService, type RouterServiceServer } from "@agentic/proto/router/v1";
import { ROUTER_ACCESS } from "./access";
import { findCapabilitiesHandler } from "./rpc/find-capabilities";
import { getRecommendationHandler } from "./rpc/get-recommendation";
import { getRouteHealthHandler } from "./rpc/get-route-health";
import { recommendHandler, type RouterRecommendDeps } from "./rpc/recommend";
import { routeTaskHandler } from "./rpc/route-task";
import type { IntentIndexHolder } from "./intent/intent-index-holder";

export const ROUTER_SERVICE_NAME = "agentic.router.v1.RouterService";

export interface RouterServerDeps extends RouterRecommendDeps {
  /** The grpc.health.v1 service; the composition root flips it. */
  grpcHealth: Health;
  /** Verifies each caller's service token; src/access.ts says who may call. */
  verifier: TokenVerifier;
  /** The intent index of the current catalog version (RouteTask, FindCapabilities). */
  intent: Pick<IntentIndexHolder, "get">;
}

/** Registers RouterService and the standard health service on a new server. */
export function createRouterServer(deps: RouterServerDeps): Server {
  const server = createGrpcServer();
  const impl: RouterServiceServer = {
    recommend: unary(recommendHandler(deps), deps.logger),
    getRecommendation: unary(getRecommendationHandler(deps), deps.logger),
    getRouteHealth: unary(getRouteHealthHandler(deps), deps.logger),
    routeTask: unary(routeTaskHandler(deps), deps.logger),
    findCapabilities: unary(findCapabilitiesHandler(deps), deps.logger),
  };
  // No development-only callers in this table.
  server.addService(
    RouterServiceService,
    guardService(RouterServiceService, impl, { table: ROUTER_ACCESS, verifier: deps.verifier, development: false, logger: deps.logger }),
  );
  deps.grpcHealth.addToServer(server);
  return server;
}
