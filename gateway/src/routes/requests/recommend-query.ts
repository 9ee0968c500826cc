// The query of recommend, declared once: `limit` answers the best N candidates in full and counts the
// rest (candidatesOmitted), so a capability with hundreds of routes answers a few kilobytes. The route
// reads it with this object and the document's parameter is built from it.
import { z } from "zod";
import { hinted } from "../../http/request-schema";
import { MAX_PAGE_LIMIT } from "./catalog-lists";
import { wholeNumberInQuery } from "./values";

const notALimit = `must be an integer from 1 to ${MAX_PAGE_LIMIT}`;

export const recommendQuery = z.object({
  limit: hinted(
    wholeNumberInQuery(1, MAX_PAGE_LIMIT, notALimit)
      .optional()
      .meta({
        description:
          `Candidates to answer in full, best first, 1 to ${MAX_PAGE_LIMIT}; the rest are counted in \`candidatesOmitted\`. ` +
          "Without it every candidate is answered (as before). The recommendation stored under `recommendationId` keeps every candidate, " +
          "so an execute naming it runs the whole ranking. Out of range answers 400 INVALID_INPUT naming `limit`.",
        example: 5,
      }),
    `Send ?limit= between 1 and ${MAX_PAGE_LIMIT} to list that many candidates in full, or leave it out for all of them.`,
  ),
});
