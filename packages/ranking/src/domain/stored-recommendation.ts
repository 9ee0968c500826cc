// The life of an answered recommendation: stored under its id for a fixed time, then refused as
// expired; refused as stale once the catalog it was computed from has changed; never shown to
// another user (their ids answer as unknown, so an id reveals nothing).
import { failedPrecondition, notFound } from "@agentic/platform/core";
import type { RecommendResponse } from "@agentic/proto/router/v1";
import type { StoredRecommendation } from "./ports";

export interface StoreRequest {
  recommendationId: string;
  userId: string;
  domainKey: string;
  capabilityId: string;
  nowMs: number;
  /** How long the answer stays usable, in ms (RECOMMENDATION_TTL_MS). */
  ttlMs: number;
}

/** The answer with its id and expiry set, and the record that stores it. */
export function toStored(response: RecommendResponse, req: StoreRequest): StoredRecommendation {
  const expiresAtMs = req.nowMs + req.ttlMs;
  return {
    userId: req.userId,
    domainKey: req.domainKey,
    capabilityId: req.capabilityId,
    expiresAtMs,
    response: { ...response, recommendationId: req.recommendationId, recommendationExpiresAt: new Date(expiresAtMs).toISOString() },
  };
}

/** The stored answer for `userId`; NOT_FOUND when unknown or another user's, EXPIRED past its expiry. */
export function usableRecommendation(
  recommendationId: string,
  stored: StoredRecommendation | undefined,
  userId: string,
  nowMs: number,
): StoredRecommendation {
  if (!stored || stored.userId !== userId) {
    throw notFound(
      "RECOMMENDATION_NOT_FOUND",
      `No recommendation ${recommendationId} for this caller`,
      "Use the recommendationId of a recommend answered for the same API key, or call recommend again.",
      { recommendationId },
    );
  }
  if (nowMs >= stored.expiresAtMs) {
    throw failedPrecondition(
      "RECOMMENDATION_EXPIRED",
      `Recommendation ${recommendationId} expired at ${stored.response.recommendationExpiresAt}`,
      "Call recommend again for a fresh recommendationId.",
      { recommendationId, recommendationExpiresAt: stored.response.recommendationExpiresAt },
    );
  }
  return stored;
}

/** Refuses an answer computed from another catalog version than the current one (STALE). */
export function checkNotStale(stored: StoredRecommendation, currentCatalogVersion: string | undefined): void {
  if (currentCatalogVersion === stored.response.catalogVersion) return;
  throw failedPrecondition(
    "RECOMMENDATION_STALE",
    `Recommendation ${stored.response.recommendationId} was computed from catalog ${stored.response.catalogVersion}, which has changed since`,
    "Routes or prices may have changed: call recommend again for a fresh recommendationId.",
    { recommendationId: stored.response.recommendationId, catalogVersion: stored.response.catalogVersion },
  );
}
