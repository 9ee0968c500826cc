// The OpenAPI parts of recommend's candidate limit: the `limit` query parameter and the
// `candidatesOmitted` field of the answer. openapi.ts puts them on POST .../recommend.
import { MAX_PAGE_LIMIT } from "../catalog/paging";

/** A plain JSON object of the document (openapi.ts's JsonObject; not imported, as openapi.ts imports this file). */
type JsonObject = { [key: string]: unknown };

/** components.parameters entry of the limit, by name. */
export function recommendLimitParameters(): Record<string, JsonObject> {
  return {
    candidateLimit: {
      name: "limit",
      in: "query",
      required: false,
      description:
        `Candidates to answer in full, best first, 1 to ${MAX_PAGE_LIMIT}; the rest are counted in \`candidatesOmitted\`. ` +
        "Without it every candidate is answered (as before). The recommendation stored under `recommendationId` keeps every candidate, " +
        "so an execute naming it runs the whole ranking. Out of range answers 400 INVALID_INPUT naming `limit`.",
      schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT },
      example: 5,
    },
  };
}

/** The answer's field: present only when the request gave `limit`. */
export const CANDIDATES_OMITTED_SCHEMA: JsonObject = {
  type: "integer",
  minimum: 0,
  description: "Sent when the request gave `limit`: how many candidates, ranked after those in `candidates`, were left out of this answer.",
};
