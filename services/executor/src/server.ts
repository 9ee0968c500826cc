// Builds the executor gRPC server (ExecutorService + health); binding is the caller's job.
import type { Server } from "@grpc/grpc-js";
import { createGrpcServer, unary, type Health, type Logger } from "@agentic/platform";
import { ExecutorServiceService, type ExecutorServiceServer } from "@agentic/proto/executor/v1";
import type { Executor } from "./domain/executor";
import { executeHandler } from "./rpc/execute";

export const EXECUTOR_SERVICE_NAME = "agentic.executor.v1.ExecutorService";

export interface ExecutorServerDeps {
  executor: Executor;
  /** The grpc.health.v1 service; the composition root flips it. */
  grpcHealth: Health;
  logger: Logger;
}

/** Registers ExecutorService and the standard health service on a new server. */
export function createExecutorServer(deps: ExecutorServerDeps): Server {
  const server = createGrpcServer();
  const impl: ExecutorServiceServer = { execute: unary(executeHandler(deps.executor), deps.logger) };
  server.addService(ExecutorServiceService, impl);
  deps.grpcHealth.addToServer(server);
  return server;
}
