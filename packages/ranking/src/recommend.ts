// Recommend as a use case, run by the router (RouterService/Recommend) and by the executor (the ranking
// of an unpinned execute, in process): decode, read the catalog (cached), the wallet (one GetWallet
// call; none for a ranking-only request) and the agent's remembered preferences, run the pure
// recommendation (it throws INVALID_ARGUMENT / INVALID_INPUT itself), store the answer under a new
// recommendation id when a store is given. Never moves credits.
import { randomUUID } from "node:crypto";
import { callDeadlineMs, type Logger } from "@agentic/platform";
import type { RecommendRequest, RecommendResponse } from "@agentic/proto/router/v1";
import type { CatalogCache, CapabilityEntry } from "@agentic/clients";
import { ownedResourceRelationship, type OwnedResourceRelationship } from "./domain/acquisitions";
import type { Goal } from "./domain/goals";
import { choosePreferences, needsRemembered } from "./domain/preferences";
import { recommend } from "./domain/recommendation";
import {
  checkDeclaredTypes,
  checkMaxPriceCredits,
  checkRequestKeys,
  parseRecommendInput,
  withExplicitPreferences,
} from "./domain/request-input";
import type { RouteHealthBook } from "./domain/route-health";
import type { PreferenceReader, PreferenceStore, RecommendationStore, VendorQuotaReader, WalletReader } from "./domain/ports";
import { toStored } from "./domain/stored-recommendation";
import { answerJson } from "./store/answer-json";
import type { ScoringSettings } from "./domain/scoring";

export interface RecommendDeps {
  catalog: Pick<CatalogCache, "capability">;
  wallet: WalletReader;
  routeHealth: RouteHealthBook;
  /** What is spent of routes' vendor quotas (shared counters); without it quotas are not ranked on. */
  vendorQuota?: VendorQuotaReader;
  /**
   * Each agent's last explicit preferences, shared by every replica. A reader only (the executor's) ranks by
   * them and remembers nothing: an agent's goals are remembered by recommend.
   */
  preferences: PreferenceReader | PreferenceStore;
  /** Answered recommendations, shared by every replica; only ranking-only requests without it (the executor's). */
  recommendations?: RecommendationStore;
  /** How long an answered recommendation stays usable, in ms. */
  recommendationTtlMs: number;
  /** Goals applied when neither the request nor the agent's memory names any. */
  defaultPreferences: readonly Goal[];
  scoring: ScoringSettings;
  /** Deadline of each dependency call, in ms (capped by the caller's remaining budget). */
  dependencyDeadlineMs: number;
  logger: Logger;
}

/** The answer, and the capability it ranked (for the caller's span). */
export interface RecommendAnswer {
  response: RecommendResponse;
  capabilityKey: string;
  /** A stored answer's REST body (answerJson(response)), compiled once for the store and the caller; unset when not stored. */
  answerJson?: string;
}

/**
 * Recommend, given the caller's remaining budget in ms. Reads: the catalog (cache), the wallet (one GetWallet, unless the request
 * is ranking-only), the agent's remembered preferences (when the request names none), and, for a
 * capability with an owned-resource workflow, the acquiring capability. Writes the answer under its
 * recommendation id and the explicit preferences of a named agent, both in the shared KV.
 */
export function recommendFor(deps: RecommendDeps): (req: RecommendRequest, remainingMs: number) => Promise<RecommendAnswer> {
  return async (req, remainingMs) => {
    checkRequestKeys(req);
    const input = parseRecommendInput(withExplicitPreferences(req.input, req.optimizationPreferences));
    const maxPriceCredits = checkMaxPriceCredits(req.maxPriceCredits);
    const callOpts = () => ({ deadlineMs: callDeadlineMs(deps.dependencyDeadlineMs, remainingMs) });

    const entry = await deps.catalog.capability(req.domainKey, req.capabilityId, callOpts());
    checkDeclaredTypes(input.fields, entry.recommend);
    const relationship = ownedResourceRelationship(entry.capability.capabilityKey);
    // A ranking-only caller (the executor, whose hold checks the credits) never needs the balance: no ledger call.
    const rankingOnly = req.rankingOnly === true;
    if (!rankingOnly && !deps.recommendations) throw new Error("a recommend that is not ranking-only needs the recommendation store");
    const [wallet, acquisitionEntry, remembered, quotaUse] = await Promise.all([
      rankingOnly ? undefined : deps.wallet.read({ userId: req.userId, keyId: req.keyId, agentName: input.agentName }, callOpts()),
      relationship ? acquisitionOf(relationship, deps, callOpts()) : undefined,
      needsRemembered(input.preferences, input.agentName) ? deps.preferences.get(req.userId, input.agentName) : undefined,
      deps.vendorQuota?.read(entry.routes, req.userId),
    ]);

    const preferences = choosePreferences(input.preferences, remembered, deps.defaultPreferences);
    // Each route's health is read once for the whole request (scoring, blocks, reasons, workflows), as this caller sees it.
    const health = deps.routeHealth.snapshot(
      [...entry.routes, ...(acquisitionEntry?.routes ?? [])].map((r) => r.routeKey),
      Date.now(),
      req.userId,
    );
    const answer = recommend({
      capability: entry.capability,
      routes: entry.routes,
      catalogVersion: entry.catalogVersion,
      acquisition:
        relationship && acquisitionEntry
          ? { relationship, capability: acquisitionEntry.capability, routes: acquisitionEntry.routes }
          : undefined,
      preferences,
      fields: input.fields,
      balanceCredits: wallet?.balanceCredits,
      spendLimits: wallet?.spendLimits,
      maxPriceCredits,
      rankingOnly,
      // Candidates past the caller's limit are not read: they are ranked and stored compact, not explained.
      explainTop: req.candidateLimit,
      health,
      quotaUse,
      settings: deps.scoring,
    });
    // A ranking-only answer (the executor's, once per unpinned execute) is used at once and never read
    // back: it is not stored, so executes cost no store write and the bucket holds only what callers saw.
    const stored = rankingOnly
      ? undefined
      : toStored(answer, {
          recommendationId: `rec_${randomUUID()}`,
          userId: req.userId,
          domainKey: req.domainKey,
          capabilityId: req.capabilityId,
          nowMs: Date.now(),
          ttlMs: deps.recommendationTtlMs,
        });
    const storedJson = stored && answerJson(stored.response);
    await Promise.all([
      stored && storedJson !== undefined && deps.recommendations?.put(stored, storedJson),
      input.agentName && preferences.source === "request" ? remember(deps, req.userId, input.agentName, preferences.goals) : undefined,
    ]);
    return { response: stored?.response ?? answer, capabilityKey: entry.capability.capabilityKey, answerJson: storedJson };
  };
}

/**
 * Remembers a named agent's explicit goals where the preferences can be written (the router's; the
 * executor only reads them). Past the user's cap of agent names the store refuses (AGENT_NAMES_EXHAUSTED).
 */
async function remember(deps: RecommendDeps, userId: string, agentName: string, goals: readonly Goal[]): Promise<void> {
  if ("set" in deps.preferences) await deps.preferences.set(userId, agentName, goals);
}

/** The acquiring capability's entry; a workflow is optional, so a failed read only drops it. */
async function acquisitionOf(
  rel: OwnedResourceRelationship,
  deps: RecommendDeps,
  opts: { deadlineMs: number },
): Promise<CapabilityEntry | undefined> {
  try {
    return await deps.catalog.capability(rel.acquisitionDomainKey, rel.acquisitionCapabilityId, opts);
  } catch (err) {
    deps.logger.warn(
      { err, capabilityKey: rel.acquisitionCapabilityKey },
      "acquisition capability unreadable; recommending without its workflow",
    );
    return undefined;
  }
}
