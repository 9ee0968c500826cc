// What the domain needs from outside besides the catalog (read through the catalog cache of
// @agentic/clients): the caller's wallet balance (src/wallet/, over the ledger), and the two stores
// every replica shares (src/store/, NATS JetStream KV): answered recommendations and agents' preferences.
import type { CallOpts } from "@agentic/platform";
import type { RecommendResponse } from "@agentic/proto/router/v1";
import type { Route } from "@agentic/proto/catalog/v1";
import type { Goal } from "./goals";
import type { SpendLimit } from "./spend-limits";
import type { QuotaUse } from "./vendor-quota";

/** What recommend reads of the caller's wallet, in one ledger call. */
export interface WalletView {
  /** Credits the user can spend now (a user without a wallet has 0). */
  balanceCredits: number;
  /** The spend policies of the calling key (or, unknown, of all the user's keys): key-wide, and the named agent's. */
  spendLimits: SpendLimit[];
}

/** Whose wallet and policies: the user, the calling key's record id when known, the body's agent. */
export interface WalletOwner {
  userId: string;
  keyId?: string | undefined;
  agentName?: string | undefined;
}

export interface WalletReader {
  read(owner: WalletOwner, opts?: CallOpts): Promise<WalletView>;
}

/** What is spent of routes' vendor quotas this window (the executor's shared counters). */
export interface VendorQuotaReader {
  /** The use of each route of `routes` that has a vendor quota, for `userId`; a route whose counters cannot be read is left out. */
  read(routes: readonly Route[], userId: string): Promise<Map<string, QuotaUse>>;
}

/** One Recommend answer as stored under its recommendation id. */
export interface StoredRecommendation {
  userId: string;
  domainKey: string;
  capabilityId: string;
  /** When the answer stops being usable, ms since the epoch. */
  expiresAtMs: number;
  /** The answer field for field, recommendationId and catalogVersion included. */
  response: RecommendResponse;
}

/** Answered recommendations, shared by every replica. */
export interface RecommendationStore {
  /** Stores `stored`; `answerJson` is its answer's REST body (answerJson()), which the stored value embeds rather than encoding the answer again. */
  put(stored: StoredRecommendation, answerJson: string): Promise<void>;
  /** undefined when the id is unknown (never stored, or dropped long after it expired). */
  get(recommendationId: string): Promise<StoredRecommendation | undefined>;
}

/** The last explicit preferences each agent (user + agentName) gave, as read. */
export interface PreferenceReader {
  get(userId: string, agentName: string): Promise<readonly Goal[] | undefined>;
}

/** The last explicit preferences each agent gave, shared by every replica, read and remembered (the router's). */
export interface PreferenceStore extends PreferenceReader {
  set(userId: string, agentName: string, goals: readonly Goal[]): Promise<void>;
}
