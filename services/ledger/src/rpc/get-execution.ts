// GetExecution: where one execution of a user stands, with its holds. NOT_FOUND (EXECUTION_NOT_FOUND)
// for an unknown id and for another user's execution alike.
import type { UnaryHandler } from "@agentic/platform";
import type { GetExecutionRequest, GetExecutionResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toExecutionMessage } from "./convert";

export function getExecution(ledger: Ledger): UnaryHandler<GetExecutionRequest, GetExecutionResponse> {
  return async (req) => ({ execution: toExecutionMessage(await ledger.getExecution(req.userId, req.executionId)) });
}
