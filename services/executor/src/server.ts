// Builds the executor gRPC server (ExecutorService + health); binding is the caller's job.
import type { Server } from "@grpc/grpc-js";
import { createGrpcServer, guardService, unary, type Health, type Logger, type TokenVerifier } from "@agentic/platform";
import { ExecutorServiceService, type ExecutorServiceServer } from "@agentic/proto/executor/v1";
import { EXECUTOR_ACCESS } from "./access";
import type { Executor } from "./domain/executor";
import type { Drain } from "./drain";
import { withinExecutionBudget } from "./execution-budget";
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
  /** Counts the calls in flight for a stop, and refuses new ones once it began. */
  drain: Drain;
  /** EXECUTION_BUDGET_MS: the most one Execute works before its last settlement, whatever the caller's deadline. */
  executionBudgetMs: number;
  /** The longest an Execute takes to answer (config.ts executeAnswerBoundMs): a recycled connection waits that long for its calls. */
  longestCallMs: number;
}

/** Registers ExecutorService and the standard health service on a new server. */
export function createExecutorServer(deps: ExecutorServerDeps): Server {
  const server = createGrpcServer({ longestCallMs: deps.longestCallMs });
  const { drain } = deps;
  const impl: ExecutorServiceServer = {
    execute: unary(drain.admit(withinExecutionBudget(executeHandler(deps.executor), deps.executionBudgetMs)), deps.logger),
    quote: unary(drain.admit(quoteHandler(deps.executor)), deps.logger),
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
