// Builds the executor gRPC server (ExecutorService + health); binding is the caller's job.
import type { Server } from "@grpc/grpc-js";
import { createGrpcServer, guardService, unary, type Health, type Logger, type TokenVerifier } from "@agentic/platform";
import { ExecutorServiceService, type ExecutorServiceServer } from "@agentic/proto/executor/v1";
import { EXECUTOR_ACCESS } from "./access";
import type { Executor } from "./domain/executor";
import { executeHandler } from "./rpc/execute";
import { quoteHandler } from "./rpc/quote";

export const EXECUTOR_SERVICE_NAME = "agentic.executor.v1.ExecutorService";

export interface ExecutorServerDeps {
  executor: Executor;
  /** The grpc.health.v1 service; the composition root flips it. */
  grpcHealth: Health;
  logger: Logger;
  /** Verifies each caller's service token; src/access.ts says who may call. */
  verifier: TokenVerifier;
}

/** Registers ExecutorService and the standard health service on a new server. */
export function createExecutorServer(deps: ExecutorServerDeps): Server {
  const server = createGrpcServer();
  const impl: ExecutorServiceServer = {
    execute: unary(executeHandler(deps.executor), deps.logger),
    quote: unary(quoteHandler(deps.executor), deps.logger),
  };
  // No development-only callers in this table.
  server.addService(
    ExecutorServiceService,
    guardService(ExecutorServiceService, impl, {
      table: EXECUTOR_ACCESS,
      verifier: deps.verifier,
      development: false,
      logger: deps.logger,
    }),
  );
  deps.grpcHealth.addToServer(server);
  return server;
}
