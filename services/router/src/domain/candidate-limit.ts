// A recommend answer with only its best candidates in full: a capability with hundreds of routes
// answers a few kilobytes, the rest counted. The stored answer keeps every candidate (an execute
// naming its recommendation id runs the whole ranking), those past the limit without reasons, next
// actions or features (the ranking does not build them); only what the caller reads is shortened.
import type { RecommendResponse } from "@agentic/proto/router/v1";
import { InputError } from "@agentic/ranking/domain";

/** The most candidates one answer lists in full when a limit is given (the catalog lists' page size). */
export const MAX_CANDIDATE_LIMIT = 200;

/** candidate_limit: a whole number from 1 to MAX_CANDIDATE_LIMIT; undefined when not set. */
export function checkCandidateLimit(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_CANDIDATE_LIMIT) {
    throw new InputError(
      "limit",
      `limit must be a whole number from 1 to ${MAX_CANDIDATE_LIMIT}`,
      `Send limit as the number of candidates to list in full, 1 to ${MAX_CANDIDATE_LIMIT}, or leave it out for all of them.`,
    );
  }
  return value;
}

/** The answer with its first `limit` candidates and candidatesOmitted; as it is without a limit. */
export function withCandidateLimit(response: RecommendResponse, limit: number | undefined): RecommendResponse {
  if (limit === undefined) return response;
  const shown = response.candidates.slice(0, limit);
  return { ...response, candidates: shown, candidatesOmitted: response.candidates.length - shown.length };
}
