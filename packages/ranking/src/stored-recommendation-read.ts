// GetRecommendation as a use case (the router's RPC, and the executor running a recommendationId in
// process): a stored Recommend answer, exactly as it was given, from whichever
// replica is asked (the store is shared). Refused when unknown or another user's (NOT_FOUND), past
// its expiry (RECOMMENDATION_EXPIRED) or computed from a catalog that has changed since (RECOMMENDATION_STALE).
import type { CatalogCache } from "@agentic/clients";
import { AppError, callDeadlineMs } from "@agentic/platform";
import type { GetRecommendationRequest, GetRecommendationResponse } from "@agentic/proto/router/v1";
import type { RecommendationStore } from "./domain/ports";
import { requireFields } from "./domain/request-input";
import { checkNotStale, usableRecommendation } from "./domain/stored-recommendation";

export interface GetRecommendationDeps {
  catalog: Pick<CatalogCache, "capability">;
  recommendations: Pick<RecommendationStore, "get">;
  dependencyDeadlineMs: number;
}

export function getRecommendationFor(
  deps: GetRecommendationDeps,
): (req: GetRecommendationRequest, remainingMs: number) => Promise<GetRecommendationResponse> {
  return async (req, remainingMs) => {
    requireFields(req, ["recommendationId", "userId"], "GetRecommendationRequest");
    const stored = usableRecommendation(req.recommendationId, await deps.recommendations.get(req.recommendationId), req.userId, Date.now());
    // The catalog version now, as the cache knows it (it follows the catalog within CATALOG_REFRESH_MS).
    let currentVersion: string | undefined;
    try {
      const deadlineMs = callDeadlineMs(deps.dependencyDeadlineMs, remainingMs);
      currentVersion = (await deps.catalog.capability(stored.domainKey, stored.capabilityId, { deadlineMs })).catalogVersion;
    } catch (err) {
      // A capability the catalog no longer has makes the answer stale; anything else (catalog down) passes on.
      if (!(err instanceof AppError && err.kind === "not_found")) throw err;
    }
    checkNotStale(stored, currentVersion);
    return { recommendation: stored.response };
  };
}
