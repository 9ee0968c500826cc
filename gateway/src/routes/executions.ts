// GET /executions/{executionId}: where one execution of the caller stands (the id comes from the
// Execution-Id header of an execute answer or error), read from the ledger's execution record.
import { Router, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { EXECUTION_ID_PATTERN, invalidInput } from "../errors";
import { toExecutionView } from "../mappers/ledger";

/** The 400 of a malformed id (the OpenAPI example shows the same words). */
export const INVALID_EXECUTION_ID = {
  problem: "must be 1 to 128 letters, digits, '_' or '-'",
  hint: "Use the Execution-Id header of an execute answer (exe_ followed by letters and digits).",
} as const;

export function executionRoutes(ledger: LedgerClient, auth: RequestHandler): Router {
  const router = Router();

  router.get<{ executionId: string }>("/executions/:executionId", auth, async (req, res) => {
    // The state changes until the execution ends (and an error must not be cached either).
    res.setHeader("Cache-Control", "no-store");
    const { executionId } = req.params;
    if (!EXECUTION_ID_PATTERN.test(executionId)) {
      throw invalidInput("executionId", INVALID_EXECUTION_ID.problem, INVALID_EXECUTION_ID.hint);
    }
    // The ledger answers NOT_FOUND (EXECUTION_NOT_FOUND) for another user's execution too, so ids are not probed.
    const { execution } = await ledger.getExecution({ userId: res.locals.caller.userId, executionId });
    if (!execution) throw new Error(`GetExecution answered no execution for ${executionId}`);
    res.json({ success: true, execution: toExecutionView(execution) });
  });

  return router;
}
