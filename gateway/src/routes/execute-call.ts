// The executor call of one execute, made as a careful client makes it. The execution's id is chosen
// here, so a call that outlives the gateway's deadline still names what to read: 504 TIMEOUT with the
// id (body and Execution-Id) and GET /executions/{id} in the hint, never "retry shortly", since it may
// still end charged. A refusal by an executor that is shutting down (EXECUTOR_DRAINING: nothing was
// held or called) is asked again at once; the channel's round robin sends it to another executor.
import { status as GrpcStatus } from "@grpc/grpc-js";
import { AppError, fromServiceError, isUnansweredCall, newId } from "@agentic/platform";
import type { ExecutorClient } from "@agentic/clients";
import type { ExecuteResponse } from "@agentic/proto/executor/v1";

type ExecuteCall = Omit<Parameters<ExecutorClient["execute"]>[0], "executionId">;

/** Tries while executors refuse because they are shutting down: a rollout stops one or two at a time. */
const DRAINING_TRIES = 3;

/** The 504 of an execute whose executor did not answer within the gateway's deadline. */
export function executionTimedOut(executionId: string): AppError {
  return new AppError(
    "deadline_exceeded",
    "TIMEOUT",
    `Execution ${executionId} did not answer within the gateway's deadline; it may still finish and be charged.`,
    `Read GET /executions/${executionId} for its outcome before trying again: a retry with the same Idempotency-Key ` +
      "answers that outcome, a retry without one could run it twice.",
    { executionId },
  );
}

/** Whether the gateway's own deadline of the call passed (grpc-js raised it: the executor never answered). */
function deadlinePassed(err: unknown): boolean {
  return isUnansweredCall(err) && err.code === GrpcStatus.DEADLINE_EXCEEDED;
}

export async function callExecutor(executor: ExecutorClient, call: ExecuteCall): Promise<ExecuteResponse> {
  const executionId = newId("execution");
  for (let attempt = 1; ; attempt++) {
    try {
      return await executor.execute({ ...call, executionId });
    } catch (err) {
      if (deadlinePassed(err)) throw executionTimedOut(executionId);
      // Refused before anything was done, so the same id is still unused.
      if (attempt < DRAINING_TRIES && fromServiceError(err).code === "EXECUTOR_DRAINING") continue;
      throw err;
    }
  }
}
