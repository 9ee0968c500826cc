// Builds the router gRPC server (RouterService + health); binding is the caller's job.
import type { Server } from "@grpc/grpc-js";
import { createGrpcServer, unary, type Health } from "@agentic/platform";
import { RouterServiceService, type RouterServiceServer } from "@agentic/proto/router/v1";
import { recommendHandler, type RecommendDeps } from "./rpc/recommend";

export const ROUTER_SERVICE_NAME = "agentic.router.v1.RouterService";

export interface RouterServerDeps extends RecommendDeps {
  /** The grpc.health.v1 service; the composition root flips it. */
  grpcHealth: Health;
}

/** Registers RouterService and the standard health service on a new server. */
export function createRouterServer(deps: RouterServerDeps): Server {
  const server = createGrpcServer();
  const impl: RouterServiceServer = {
    recommend: unary(recommendHandler(deps), deps.logger),
  };
  server.addService(RouterServiceService, impl);
  deps.grpcHealth.addToServer(server);
  return server;
}
