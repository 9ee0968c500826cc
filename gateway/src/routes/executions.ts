// GET /executions/{executionId}: where one execution of the caller stands (the id comes from the
// Execution-Id header of an execute answer or error), read from the ledger's execution record.
import { Router, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { parseParams } from "../http/request-schema";
import { executionParams } from "./requests/executions";
import { toExecutionView } from "../mappers/ledger";

export function executionRoutes(ledger: LedgerClient, auth: RequestHandler): Router {
  const router = Router();

  router.get("/executions/:executionId", auth, async (req, res) => {
    // The state changes until the execution ends (and an error must not be cached either).
    res.setHeader("Cache-Control", "no-store");
    const { executionId } = parseParams(executionParams, req);
    // The ledger answers NOT_FOUND (EXECUTION_NOT_FOUND) for another user's execution too, so ids are not probed.
    const { execution } = await ledger.getExecution({ userId: res.locals.caller.userId, executionId });
    if (!execution) throw new Error(`GetExecution answered no execution for ${executionId}`);
    res.json({ success: true, execution: toExecutionView(execution) });
  });

  return router;
}
