// GET /executions/{executionId}.

import type { JsonObject } from "../document";
import type { Examples } from "../examples";
import { ref } from "../json-schema";
import { ok, operation, paramRef } from "../operation";

export function executionPaths(ex: Examples): Record<string, Record<string, JsonObject>> {
  return {
    "/executions/{executionId}": {
      get: operation({
        operationId: "getExecution",
        tag: "Executions",
        summary: "Get an execution",
        description:
          "Where one execution of the caller stands: its state, each provider attempt with the credits held and charged, and the answer it ended with. " +
          "The id is the `Execution-Id` header of an execute answer (or `executionId` of an error about it). For a client: `claimed` and `running` mean wait " +
          "and read again; `indeterminate` means the provider may have been reached and the outcome is being reconciled (it will not be run again, its hold stays); " +
          "`succeeded` was charged `creditsCharged`; `failed` charged nothing; `outcome_unknown` was abandoned mid-call, charged nothing, and the provider may have acted. " +
          "Another user's execution answers 404 like an unknown one. Never cached (`Cache-Control: no-store`).",
        auth: true,
        parameters: [paramRef("executionId")],
        success: {
          ...ok("The execution.", ref("ExecutionStatusResponse"), ex.executionStatus),
          headers: {
            "Cache-Control": { description: "`no-store`: the state changes until the execution ends.", schema: { type: "string" } },
          },
        },
        errors: { "400": "InvalidExecutionId", "404": "ExecutionNotFound" },
      }),
    },
  };
}
