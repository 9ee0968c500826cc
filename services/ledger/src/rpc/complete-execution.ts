// CompleteExecution: ends an execution with its answer; the first completion wins. NOT_FOUND
// (EXECUTION_NOT_FOUND) for an execution that is not the user's or has expired.
import type { UnaryHandler } from "@agentic/platform";
import type { CompleteExecutionRequest, CompleteExecutionResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { invalidField } from "../domain/errors";

export function completeExecution(ledger: Ledger): UnaryHandler<CompleteExecutionRequest, CompleteExecutionResponse> {
  return async (req) => {
    if (!req.result) throw invalidField("result", "result is required.", "Send the HTTP status and body the execution answered with.");
    await ledger.completeExecution({
      userId: req.userId,
      executionId: req.executionId,
      result: { httpStatus: req.result.httpStatus, body: req.result.body },
    });
    return {};
  };
}
