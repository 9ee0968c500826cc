// The path of GET /executions/{executionId}, declared once: the route parses with it and the document's
// executionId parameter is built from it.
import { z } from "zod";
import { hinted } from "../../http/request-schema";
import { EXECUTION_ID_PATTERN } from "../../errors";

/** The 400 of a malformed id (the OpenAPI example shows the same words). */
export const INVALID_EXECUTION_ID = {
  problem: "must be 1 to 128 letters, digits, '_' or '-'",
  hint: "Use the Execution-Id header of an execute answer (exe_ followed by letters and digits).",
} as const;

export const executionParams = z.object({
  executionId: hinted(
    z.string().regex(EXECUTION_ID_PATTERN, { error: INVALID_EXECUTION_ID.problem }).meta({
      description: "Id of the execution: the `Execution-Id` header of an execute answer, or `executionId` of an error about it.",
      example: "exe_4fQxL2vR8mT1nB7cK9pZ3d",
    }),
    INVALID_EXECUTION_ID.hint,
  ),
});
