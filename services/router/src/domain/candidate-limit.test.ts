import { RecommendationCandidate, RecommendResponse } from "@agentic/proto/router/v1";
import { checkCandidateLimit, MAX_CANDIDATE_LIMIT, withCandidateLimit } from "./candidate-limit";
import { InputError } from "@agentic/ranking/domain";

const answerWith = (n: number): RecommendResponse =>
  RecommendResponse.fromPartial({
    success: true,
    candidates: Array.from({ length: n }, (_, i) => RecommendationCandidate.fromPartial({ routeKey: `r${i}` })),
  });

describe("candidate limit", () => {
  it("keeps the best candidates in order and counts the rest; no limit is the answer as it was", () => {
    const answer = answerWith(7);
    const limited = withCandidateLimit(answer, 3);
    expect(limited.candidates.map((c) => c.routeKey)).toEqual(["r0", "r1", "r2"]);
    expect(limited.candidatesOmitted).toBe(4);
    expect(withCandidateLimit(answer, 10).candidatesOmitted).toBe(0);
    expect(withCandidateLimit(answer, undefined)).toBe(answer);
  });

  it("takes whole numbers from 1 to the maximum, else an InputError naming limit", () => {
    expect(checkCandidateLimit(undefined)).toBeUndefined();
    expect(checkCandidateLimit(1)).toBe(1);
    expect(checkCandidateLimit(MAX_CANDIDATE_LIMIT)).toBe(MAX_CANDIDATE_LIMIT);
    for (const bad of [0, -1, MAX_CANDIDATE_LIMIT + 1, 2.5]) {
      expect(() => checkCandidateLimit(bad)).toThrow(expect.objectContaining({ field: "limit" }) as InputError);
    }
  });
});
