// RouterService/Recommend: the shared ranking's recommend (@agentic/ranking), with this router's stores:
// every answer but a ranking-only one is stored under its recommendation id, an agent's explicit goals
// are remembered. A candidate limit shortens what the caller reads; the stored answer keeps every
// candidate, those past the limit compact (ranked, priced and blocked, not explained: see the ranking's
// explainTop), so a capability with hundreds of routes costs about what the candidates read cost. The
// span names the capability and the pick. A caller that writes the answer out as JSON (the gateway)
// asks answer_as_json and gets the JSON text the store was given, so the answer is compiled once.
import { trace } from "@opentelemetry/api";
import { ATTR_CAPABILITY_KEY, ATTR_DOMAIN_KEY, ATTR_ROUTE_KEY, type UnaryHandler } from "@agentic/platform";
import { RecommendResponse, type RecommendRequest } from "@agentic/proto/router/v1";
import { answerJson, recommendFor, type PreferenceStore, type RecommendationStore, type RecommendDeps } from "@agentic/ranking";
import { checkCandidateLimit, withCandidateLimit } from "../domain/candidate-limit";

export interface RouterRecommendDeps extends RecommendDeps {
  preferences: PreferenceStore;
  recommendations: RecommendationStore;
}

export function recommendHandler(deps: RouterRecommendDeps): UnaryHandler<RecommendRequest, RecommendResponse> {
  const recommend = recommendFor(deps);
  return async (req, ctx) => {
    const candidateLimit = checkCandidateLimit(req.candidateLimit);
    const { response, capabilityKey, answerJson: storedJson } = await recommend(req, ctx.remainingMs());
    trace.getActiveSpan()?.setAttributes({
      [ATTR_DOMAIN_KEY]: req.domainKey,
      [ATTR_CAPABILITY_KEY]: capabilityKey,
      [ATTR_ROUTE_KEY]: response.recommendedRouteKey,
    });
    if (req.answerAsJson !== true) return withCandidateLimit(response, candidateLimit);
    // Without a limit the caller reads the stored answer itself, already compiled for the store.
    const json =
      candidateLimit === undefined && storedJson !== undefined ? storedJson : answerJson(withCandidateLimit(response, candidateLimit));
    return RecommendResponse.fromPartial({ answerJson: Buffer.from(json) });
  };
}
