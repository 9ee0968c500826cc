// The executor call of one execute, made as a careful client makes it. The execution's id is chosen
// here, so a call that got no answer once it reached an executor (the gateway's deadline passed, or
// the connection dropped mid-call) still names what to read: 504 TIMEOUT with the id (body and
// Execution-Id) and GET /executions/{id} in the hint, never a 503 "retry shortly", since it may still
// end charged and a blind retry could run it twice. Only a call that never left the gateway is a 503. A refusal by an executor that is shutting down (EXECUTOR_DRAINING: nothing was
// held or called) is asked again at once; the channel's round robin sends it to another executor.
import { status as GrpcStatus } from "@grpc/grpc-js";
import { AppError, fromServiceError, isUnansweredCall, neverReachedServer, newId } from "@agentic/platform";
import type { ExecutorClient } from "@agentic/clients";
import type { ExecuteResponse } from "@agentic/proto/executor/v1";

type ExecuteCall = Omit<Parameters<ExecutorClient["execute"]>[0], "executionId">;

/** Tries while executors refuse because they are shutting down: a rollout stops one or two at a time. */
const DRAINING_TRIES = 3;

/** Why an execute got no answer once it reached its executor. */
const NO_ANSWER = {
  deadline: "did not answer within the gateway's deadline",
  connection: "lost its connection to the executor before it answered",
} as const;

/** The 504 of an execute that reached its executor and got no answer: the execution to read, never a blind retry. */
export function executionTimedOut(executionId: string, why: keyof typeof NO_ANSWER = "deadline"): AppError {
  return new AppError(
    "deadline_exceeded",
    "TIMEOUT",
    `Execution ${executionId} ${NO_ANSWER[why]}; it may still finish and be charged.`,
    `Read GET /executions/${executionId} for its outcome before trying again: a retry with the same Idempotency-Key ` +
      "answers that outcome, a retry without one could run it twice.",
    { executionId },
  );
}

/** What the gateway answers for an executor call that got no answer, or undefined when the call never reached one. */
function unanswered(err: unknown, executionId: string): AppError | undefined {
  if (!isUnansweredCall(err)) return undefined;
  if (err.code === GrpcStatus.DEADLINE_EXCEEDED) return executionTimedOut(executionId);
  return neverReachedServer(err) ? undefined : executionTimedOut(executionId, "connection");
}

export async function callExecutor(executor: ExecutorClient, call: ExecuteCall): Promise<ExecuteResponse> {
  const executionId = newId("execution");
  for (let attempt = 1; ; attempt++) {
    try {
      return await executor.execute({ ...call, executionId });
    } catch (err) {
      const outcomeUnknown = unanswered(err, executionId);
      if (outcomeUnknown) throw outcomeUnknown;
      // Refused before anything was done, so the same id is still unused.
      if (attempt < DRAINING_TRIES && fromServiceError(err).code === "EXECUTOR_DRAINING") continue;
      throw err;
    }
  }
}
