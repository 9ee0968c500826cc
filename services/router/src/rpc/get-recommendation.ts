// RouterService/GetRecommendation: the shared ranking's read of a stored answer (@agentic/ranking).
import type { UnaryHandler } from "@agentic/platform";
import type { GetRecommendationRequest, GetRecommendationResponse } from "@agentic/proto/router/v1";
import { getRecommendationFor, type GetRecommendationDeps } from "@agentic/ranking";

export function getRecommendationHandler(deps: GetRecommendationDeps): UnaryHandler<GetRecommendationRequest, GetRecommendationResponse> {
  const read = getRecommendationFor(deps);
  return (req, ctx) => read(req, ctx.remainingMs());
}
