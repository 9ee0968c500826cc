// The ledger's use cases: identity (API keys) and money (grants, holds, settlements, expiry, usage,
// the journal) and idempotency records. Validates input, applies the rules through one atomic store
// operation each, and turns store outcomes into results or LedgerErrors. No transport here.
import type { DomainLogger, HoldCommand, HoldResult, LedgerMetrics, LedgerStore, SettleResult } from "./ports";
import type {
  ApiKeyLimits,
  ApiKeyRecord,
  ClaimOutcome,
  ExecutionRecord,
  Hold,
  JournalEntry,
  OutgoingPayment,
  OwnedResource,
  SettlementKind,
  StoredResult,
  UsageItem,
  UsageQuery,
  Wallet,
} from "./types";
import { apiKeyRecord, generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-keys";
import { requireKeyAgents, type KeyAgents } from "./key-agents";
import {
  apiKeyNotFound,
  balanceTooLow,
  creditReferenceConflict,
  creditsRequired,
  executionFenced,
  executionNotFound,
  grantIdConflict,
  holdIdConflict,
  holdNotFound,
  idempotencyKeyNotFound,
  invalidApiKey,
  invalidField,
  quoteAlreadyUsed,
  quoteAmountMismatch,
  quoteExpired,
  quoteIdConflict,
  quoteNotFound,
  resourceNotFound,
  spendRefused,
  tooManyOpenQuotes,
  unchargedFailuresLimited,
} from "./errors";
import { quoteStatus, type QuoteRecord, type QuoteRefusal, type QuoteStatus } from "./quote";
import { normalizedAgent, spendOf } from "./spend-of-hold";
import { createSpendPolicies } from "./spend-policies";
import { createTopUpResolution } from "./top-up-resolution";
import { creditMovementRows, reconciliationRows, usagePosition } from "./rules";
import { decodeUsageCursor, encodeUsageCursor } from "./usage-cursor";
import { summarizeUsage, type UsageSummary } from "./usage-summary";
import { requireSummaryRange } from "./usage-summary-request";
import {
  MAX_AGENT_NAME_LENGTH,
  durationOrDefault,
  limitOrDefault,
  optionalFilter,
  optionalKeyLimits,
  optionalText,
  optionalTimeRange,
  optionalUsageKind,
  requireCredits,
  requireDayRange,
  requireId,
  requireIdempotencyKey,
  requireMovement,
  requireResourceId,
  requireText,
} from "./validate";

export * from "./ledger-limits";
import {
  IDEMPOTENCY_RETENTION_MS,
  DEFAULT_LEASE_MS,
  ABANDON_GRACE_MS,
  MAX_HOLD_TTL_MS,
  DEFAULT_USAGE_LIMIT,
  MAX_USAGE_LIMIT,
  MAX_MOVEMENT_REASON_LENGTH,
  MAX_OPERATOR_NAME_LENGTH,
  DEFAULT_UNCHARGED_DAILY_ALLOWANCE,
} from "./ledger-limits";

export interface LedgerDeps {
  store: LedgerStore;
  /** Default lifetime of a hold that is never settled, in ms. */
  holdTtlMs: number;
  clock?: () => Date;
  logger?: DomainLogger;
  /** Counts the holds spend policies refuse. */
  metrics?: Pick<LedgerMetrics, "spendRefused">;
  /**
   * Uncharged outcomes of vendor work on our own keys one user may have per UTC day before its holds are
   * refused (UNCHARGED_FAILURES_LIMITED); default DEFAULT_UNCHARGED_DAILY_ALLOWANCE.
   */
  unchargedDailyAllowance?: number;
}

export type { CreditMovementRequest, ExecutionView, HoldRequest, Reconciliation, Settlement, UsagePageRequest } from "./ledger-requests";
export type { ClaimRequest } from "./claim-request";
import type { CreditMovementRequest, ExecutionView, HoldRequest, Reconciliation, Settlement, UsagePageRequest } from "./ledger-requests";
import { claimCommand, requireHttpStatus, type ClaimRequest } from "./claim-request";

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger(deps: LedgerDeps) {
  const { store } = deps;
  const now = deps.clock ?? (() => new Date());

  function logSettlement(result: SettleResult, kind: SettlementKind, holdId: string, requestedCredits: number): void {
    const log = deps.logger;
    if (!log) return;
    if (result.status === "unknown_hold")
      log.warn({ holdId, kind }, "settlement for an unknown hold: not applied (a capture is retried, then dead-lettered)");
    else if (result.status === "user_mismatch")
      log.error({ holdId, kind, holdUserId: result.hold.userId }, "settlement names another user; ignored");
    else if (result.status === "already_settled" && kind === "capture" && result.hold.state === "expired") {
      // Documented choice: the user is never charged for a hold the ledger already gave back.
      log.warn({ holdId, requestedCredits }, "capture arrived after the hold expired; not charged");
    } else if (result.status === "applied" && kind === "capture" && result.hold.capturedCredits !== requestedCredits) {
      log.error({ holdId, requestedCredits, chargedCredits: result.hold.capturedCredits }, "capture outside 0..held amount; clamped");
    }
    if (result.status !== "applied" && result.status !== "already_settled") return;
    for (const loss of result.booked.losses) {
      log.warn(
        {
          holdId,
          paymentId: loss.paymentId,
          reason: loss.reason,
          amountMicroUsd: loss.amountMicroUsd,
          routeKey: loss.routeKey,
          reference: loss.reference,
        },
        "platform loss: paid a seller and charged nothing",
      );
    }
    for (const owner of result.booked.resourceConflicts) {
      // Vendor ids are unique, so this is a bug or an attack: the resource stays with its first owner.
      log.error(
        { holdId, kind: owner.kind, resourceId: owner.resourceId, ownerUserId: owner.userId },
        "a capture named a resource another user owns; ownership unchanged",
      );
    }
  }

  /** A hold request, validated, as the store takes it. */
  function holdCommand(req: HoldRequest, at: Date): HoldCommand {
    const ttlMs = durationOrDefault("ttl_ms", req.ttlMs, deps.holdTtlMs, 1, MAX_HOLD_TTL_MS);
    const execution = req.execution
      ? {
          executionId: requireId("execution.execution_id", req.execution.executionId),
          capabilityKey: optionalText("execution.capability_key", req.execution.capabilityKey),
          ...(req.execution.idempotencyKey
            ? { idempotencyKey: requireIdempotencyKey("execution.idempotency_key", req.execution.idempotencyKey) }
            : {}),
          leaseMs: DEFAULT_LEASE_MS,
          retentionMs: IDEMPOTENCY_RETENTION_MS,
        }
      : undefined;
    return {
      holdId: requireId("hold_id", req.holdId),
      userId: requireId("user_id", req.userId),
      amountCredits: requireCredits("amount_credits", req.amountCredits),
      routeKey: optionalText("route_key", req.routeKey),
      expiresAt: new Date(at.getTime() + ttlMs),
      now: at,
      ...(execution ? { execution } : {}),
      ...spendOf(req, execution?.capabilityKey),
      ...(req.quoteId ? { quoteId: requireId("quote_id", req.quoteId) } : {}),
      unchargedAllowance: deps.unchargedDailyAllowance ?? DEFAULT_UNCHARGED_DAILY_ALLOWANCE,
    };
  }

  /** The hold placed (or replayed), or the error that says why not. */
  function holdAnswer(result: HoldResult, req: HoldRequest, at: Date): { hold: Hold; wallet: Wallet; replayed: boolean } {
    if (result.status === "uncharged_limit") throw unchargedFailuresLimited(result.count, result.limit, at);
    if (result.status === "spend_refused") {
      deps.metrics?.spendRefused(result.refusal.code, result.refusal.limit);
      throw spendRefused(result.refusal);
    }
    if (result.status === "quote_refused") throw quoteRefused(result.reason, req.quoteId ?? "", req.amountCredits);
    if (result.status === "conflict") throw holdIdConflict(req.holdId);
    if (result.status === "fenced") throw executionFenced(req.execution?.executionId ?? "", result.reason);
    if (result.status === "insufficient") throw creditsRequired(req.amountCredits, result.wallet.balanceCredits);
    return { hold: result.hold, wallet: result.wallet, replayed: result.status === "replayed" };
  }

  const spendPolicies = createSpendPolicies({ store, now });
  const topUpResolution = createTopUpResolution({ store, now });
  return {
    // Spend policies: set, list, and the ones a wallet read shows.
    ...spendPolicies,
    ...topUpResolution,

    /** Resolves a presented key to its owner (and the agents it may act as); INVALID_API_KEY when malformed, unknown or revoked. */
    async authenticateApiKey(apiKey: string): Promise<{ userId: string; keyId: string; limits?: ApiKeyLimits } & KeyAgents> {
      if (!isWellFormedApiKey(apiKey)) throw invalidApiKey();
      const record = await store.findApiKeyByHash(hashApiKey(apiKey));
      if (!record || record.revokedAt) throw invalidApiKey();
      return {
        userId: record.userId,
        keyId: record.keyId,
        ...(record.limits ? { limits: record.limits } : {}),
        ...(record.agentName !== undefined ? { agentName: record.agentName } : {}),
        ...(record.agentNames?.length ? { agentNames: record.agentNames } : {}),
      };
    },

    /**
     * Creates a key for `userId`, optionally issued for one agent (`agents.agentName`) or requiring one of
     * several (`agents.agentNames`), names normalized; the plaintext is in the result only.
     */
    async createApiKey(
      userId: string,
      name: string,
      agents: { agentName?: string; agentNames?: readonly string[] } = {},
    ): Promise<{ apiKey: string; record: ApiKeyRecord }> {
      const keyAgents = requireKeyAgents(agents.agentName, agents.agentNames ?? []);
      const apiKey = generateApiKey();
      const { record } = await store.insertApiKey(
        apiKeyRecord(apiKey, requireId("user_id", userId), optionalText("name", name), now(), keyAgents),
      );
      return { apiKey, record };
    },

    /**
     * Registers a key given in configuration (AGENTIC_API_KEYS). Idempotent: the same key again
     * returns its record; a key registered for another user is an error; a revoked key stays revoked.
     */
    async registerApiKey(apiKey: string, userId: string, name = "bootstrap"): Promise<ApiKeyRecord> {
      if (!isWellFormedApiKey(apiKey))
        throw invalidField("api_key", "A bootstrap API key is malformed.", "Use aak_ followed by 32 or more base62 characters.");
      const { record } = await store.insertApiKey(apiKeyRecord(apiKey, requireId("user_id", userId), name, now()));
      if (record.userId !== userId) {
        throw invalidField(
          "api_key",
          `A bootstrap API key (${record.prefix}...) is already registered to another user.`,
          "Give each user its own key.",
        );
      }
      if (record.revokedAt) deps.logger?.warn({ keyId: record.keyId }, "bootstrap API key is revoked; it stays revoked");
      return record;
    },

    async listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
      return store.listApiKeys(userId ? requireId("user_id", userId) : undefined);
    },

    /** Revokes a key; revoking twice keeps the first revocation time. */
    async revokeApiKey(keyId: string): Promise<ApiKeyRecord> {
      const record = await store.revokeApiKey(requireId("key_id", keyId), now());
      if (!record) throw apiKeyNotFound(keyId);
      return record;
    },

    /** Replaces a key's limits; none (or all fields unset) clears them. */
    async setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord> {
      const record = await store.setApiKeyLimits(requireId("key_id", keyId), optionalKeyLimits(limits));
      if (!record) throw apiKeyNotFound(keyId);
      return record;
    },

    async getWallet(userId: string): Promise<Wallet> {
      return store.getWallet(requireId("user_id", userId));
    },

    /** Adds credits once per grant id; returns the wallet and what this call added (0 on a replay). */
    async grantCredits(req: {
      grantId: string;
      userId: string;
      amountCredits: number;
      reason: string;
    }): Promise<{ wallet: Wallet; creditedCredits: number }> {
      const result = await store.grant({
        grantId: requireId("grant_id", req.grantId),
        userId: requireId("user_id", req.userId),
        amountCredits: requireCredits("amount_credits", req.amountCredits),
        reason: optionalText("reason", req.reason),
        now: now(),
      });
      if (result.status === "conflict") throw grantIdConflict(req.grantId);
      return { wallet: result.wallet, creditedCredits: result.status === "granted" ? req.amountCredits : 0 };
    },

    /**
     * Records an operator's grant, refund or adjustment once per reference (journal entry and usage item
     * with who, why and when); CREDIT_REFERENCE_CONFLICT for a reference used otherwise, BALANCE_TOO_LOW
     * for a negative amount the available balance does not cover.
     */
    async recordCreditMovement(req: CreditMovementRequest): Promise<{ wallet: Wallet; entry: JournalEntry; replayed: boolean }> {
      const { kind, amountCredits } = requireMovement(req.kind, req.amountCredits);
      const operatorName = optionalText("operator_name", req.operatorName, MAX_OPERATOR_NAME_LENGTH);
      const result = await store.moveCredits({
        kind,
        amountCredits,
        userId: requireId("user_id", req.userId),
        reason: requireText("reason", req.reason, MAX_MOVEMENT_REASON_LENGTH),
        reference: requireId("reference", req.reference),
        operator: requireId("operator", req.operator),
        ...(operatorName ? { operatorName } : {}),
        now: now(),
      });
      if (result.status === "conflict") throw creditReferenceConflict(req.reference);
      if (result.status === "insufficient") throw balanceTooLow(amountCredits, result.wallet.balanceCredits);
      if (result.status === "recorded") {
        deps.logger?.info(
          { userId: req.userId, kind, amountCredits, reference: req.reference, operator: req.operator, operatorName },
          "credit movement recorded",
        );
      }
      return { wallet: result.wallet, entry: result.entry, replayed: result.status === "replayed" };
    },

    /** Reserves credits once per hold id; CREDITS_REQUIRED when the balance is short. */
    async holdCredits(req: HoldRequest): Promise<{ hold: Hold; wallet: Wallet; replayed: boolean }> {
      const cmd = holdCommand(req, now());
      return holdAnswer(await store.hold(cmd), req, cmd.now);
    },

    /**
     * Claims the Idempotency-Key and, only when this call claimed it, places the first hold of the
     * claimed execution, in one store step. Any other claim state answers without a hold; a refused hold
     * throws what holdCredits throws, and the claim stands (the caller stores that answer for the key).
     */
    async claimIdempotencyKeyAndHold(req: {
      claim: ClaimRequest;
      hold: HoldRequest;
    }): Promise<{ claim: ClaimOutcome; hold?: { hold: Hold; wallet: Wallet; replayed: boolean } }> {
      const at = now();
      const claim = claimCommand(req.claim, at);
      const hold = holdCommand(req.hold, at);
      if (hold.execution?.executionId !== claim.executionId || hold.execution.idempotencyKey !== claim.key || hold.userId !== claim.userId)
        throw invalidField(
          "hold.execution",
          "The hold must name the claimed execution: its user, execution_id and idempotency_key as the claim's.",
          "Send the claim's user_id, execution_id and idempotency_key in the hold.",
        );
      const result = await store.claimAndHold({ claim, hold });
      if (!result.hold) return { claim: result.claim };
      return { claim: result.claim, hold: holdAnswer(result.hold, req.hold, at) };
    },

    /**
     * Reserves a quote's credits once per quote id, counted by the key's (and agent's) spend policies while
     * open: SPEND_LIMIT_EXCEEDED or PRICE_ABOVE_MAX when a policy has no room for it, TOO_MANY_OPEN_QUOTES
     * past the key's open quotes, CREDITS_REQUIRED when the balance is short; nothing is reserved then.
     */
    async createQuoteHold(
      req: Omit<QuoteRecord, "reservationHoldId" | "usedByHoldId" | "createdAt" | "expiresAt"> & { ttlMs: number },
    ): Promise<{ quote: QuoteRecord; wallet: Wallet; replayed: boolean }> {
      const at = now();
      const ttlMs = durationOrDefault("ttl_ms", req.ttlMs, deps.holdTtlMs, 1, MAX_HOLD_TTL_MS);
      const agentName = req.agentName ? normalizedAgent(req.agentName) : "";
      const result = await store.createQuote({
        quoteId: requireId("quote_id", req.quoteId),
        userId: requireId("user_id", req.userId),
        keyId: optionalText("key_id", req.keyId),
        ...(agentName ? { agentName } : {}),
        capabilityKey: optionalText("capability_key", req.capabilityKey),
        routeKey: optionalText("route_key", req.routeKey),
        amountCredits: requireCredits("amount_credits", req.amountCredits),
        requestHash: optionalText("request_hash", req.requestHash),
        createdAt: at,
        expiresAt: new Date(at.getTime() + ttlMs),
        now: at,
      });
      if (result.status === "conflict") throw quoteIdConflict(req.quoteId);
      if (result.status === "insufficient") throw creditsRequired(req.amountCredits, result.wallet.balanceCredits);
      if (result.status === "too_many_open_quotes") throw tooManyOpenQuotes(req.keyId, result.limit);
      if (result.status === "spend_refused") {
        deps.metrics?.spendRefused(result.refusal.code, result.refusal.limit);
        throw spendRefused(result.refusal);
      }
      return { quote: result.quote, wallet: result.wallet, replayed: result.status === "replayed" };
    },

    /** One quote of the user with its status; QUOTE_NOT_FOUND for an unknown quote or another user's. */
    async getQuoteHold(userId: string, quoteId: string): Promise<{ quote: QuoteRecord; status: QuoteStatus }> {
      const found = await store.getQuote(requireId("quote_id", quoteId));
      if (!found || found.quote.userId !== requireId("user_id", userId)) throw quoteNotFound(quoteId);
      return { quote: found.quote, status: quoteStatus(found.quote, found.reservation, now()) };
    },

    async getHold(holdId: string): Promise<Hold> {
      const hold = await store.getHold(requireId("hold_id", holdId));
      if (!hold) throw holdNotFound(holdId);
      return hold;
    },

    /** Applies a capture or release from the bus; safe to call any number of times for one hold. */
    async settle(settlement: Settlement): Promise<SettleResult> {
      const result = await store.settleHold({ ...settlement, now: now() });
      logSettlement(result, settlement.kind, settlement.holdId, settlement.capturedCredits);
      return result;
    },

    /** Up to `limit` holds still held past their expiry, oldest first (nothing is written). */
    async listDueHolds(limit: number): Promise<Hold[]> {
      return store.listExpiredHolds(now(), limit);
    },

    /**
     * Releases `holds` (from listDueHolds; journal kind expiry) and returns those this call released.
     * Safe to run on several replicas at once: each hold leaves `held` in one conditional store
     * transition, so a hold settled or expired meanwhile is skipped.
     */
    async expireHolds(holds: Hold[]): Promise<Hold[]> {
      const at = now();
      const expired: Hold[] = [];
      for (const hold of holds) {
        const result = await store.settleHold({ holdId: hold.holdId, userId: hold.userId, kind: "expiry", capturedCredits: 0, now: at });
        if (result.status === "applied") expired.push(result.hold);
      }
      return expired;
    },

    /**
     * One page of usage items, newest first; `limit` 0 means 20, else 1..100. `nextCursor` (absent on the
     * last page) continues after the page's last item, with the same or other filters.
     */
    async listUsage(userId: string, limit: number, page: UsagePageRequest = {}): Promise<{ items: UsageItem[]; nextCursor?: string }> {
      const size = limitOrDefault("limit", limit, DEFAULT_USAGE_LIMIT, MAX_USAGE_LIMIT);
      const agentName = optionalFilter("agent_name", page.agentName, MAX_AGENT_NAME_LENGTH);
      const capabilityKey = optionalFilter("capability_key", page.capabilityKey);
      const kind = optionalUsageKind(page.kind);
      const query: UsageQuery = {
        ...optionalTimeRange(page.from, page.to),
        ...(page.cursor ? { after: decodeUsageCursor(page.cursor) } : {}),
        ...(agentName !== undefined ? { agentName } : {}),
        ...(capabilityKey !== undefined ? { capabilityKey } : {}),
        ...(kind !== undefined ? { kind } : {}),
      };
      // One more than the page: whether another page follows, without a count.
      const items = await store.listUsage(requireId("user_id", userId), size + 1, query);
      if (items.length <= size) return { items };
      const shown = items.slice(0, size);
      return { items: shown, nextCursor: encodeUsageCursor(usagePosition(shown[shown.length - 1]!)) };
    },

    /** A user's charges in [from, to) summed per UTC day, capability, route and agent (one store query). */
    async summarizeUsage(
      userId: string,
      req: { from?: Date; to?: Date; agentName?: string; capabilityKey?: string },
    ): Promise<UsageSummary> {
      const range = requireSummaryRange(req.from, req.to);
      const agentName = optionalFilter("agent_name", req.agentName, MAX_AGENT_NAME_LENGTH);
      const capabilityKey = optionalFilter("capability_key", req.capabilityKey);
      const totals = await store.sumUsage(requireId("user_id", userId), {
        ...range,
        ...(agentName !== undefined ? { agentName } : {}),
        ...(capabilityKey !== undefined ? { capabilityKey } : {}),
      });
      return summarizeUsage(range, totals);
    },

    /** The journal, oldest first, with its sums (which equal the wallet's balance and held credits). */
    async listJournal(userId: string): Promise<{ entries: JournalEntry[]; balanceCredits: number; heldCredits: number }> {
      const entries = await store.listJournal(requireId("user_id", userId));
      return {
        entries,
        balanceCredits: entries.reduce((sum, e) => sum + e.amountCredits, 0),
        heldCredits: entries.reduce((sum, e) => sum + e.heldDeltaCredits, 0),
      };
    },

    async claimIdempotencyKey(req: ClaimRequest): Promise<ClaimOutcome> {
      return store.claimIdempotencyKey(claimCommand(req, now()));
    },

    /** Stores the result of a claimed key (first completion wins); IDEMPOTENCY_KEY_NOT_FOUND when never claimed. */
    async completeIdempotencyKey(req: { userId: string; key: string; result: StoredResult }): Promise<void> {
      requireHttpStatus(req.result);
      const outcome = await store.completeIdempotencyKey({
        userId: requireId("user_id", req.userId),
        key: requireIdempotencyKey("idempotency_key", req.key),
        result: req.result,
        now: now(),
      });
      if (outcome === "not_found") throw idempotencyKeyNotFound();
    },

    /** Ends an execution with its result (first completion wins); EXECUTION_NOT_FOUND when it is not the user's. */
    async completeExecution(req: { userId: string; executionId: string; result: StoredResult }): Promise<void> {
      requireHttpStatus(req.result);
      const outcome = await store.completeExecution({
        userId: requireId("user_id", req.userId),
        executionId: requireId("execution_id", req.executionId),
        result: req.result,
        now: now(),
      });
      if (outcome === "not_found") throw executionNotFound(req.executionId);
    },

    /** One execution of the user with its holds; EXECUTION_NOT_FOUND for an unknown id or another user's. */
    async getExecution(userId: string, executionId: string): Promise<ExecutionView> {
      const at = now();
      const execution = await store.getExecution(requireId("execution_id", executionId));
      if (!execution || execution.userId !== requireId("user_id", userId) || execution.expiresAt.getTime() <= at.getTime())
        throw executionNotFound(executionId);
      const holds = (await Promise.all(execution.holdIds.map((id) => store.getHold(id)))).filter((h): h is Hold => h !== null);
      return {
        execution,
        indeterminate: execution.state === "running" && execution.leaseExpiresAt.getTime() <= at.getTime(),
        holds,
        creditsCharged: holds.reduce((sum, h) => sum + h.capturedCredits, 0),
      };
    },

    /**
     * Marks executions abandoned mid-call as outcome_unknown (see ExecutionState): up to `limit`,
     * each checked again in its own atomic step. Returns those this call marked.
     */
    async abandonExecutions(
      limit: number,
      graceMs = ABANDON_GRACE_MS,
      mustWait: () => Promise<boolean> = async () => false,
    ): Promise<ExecutionRecord[]> {
      const at = now();
      const abandoned: ExecutionRecord[] = [];
      const candidates = await store.listAbandonedExecutions(at, graceMs, limit);
      // Asked only when there is something to mark: e.g. while settlements are queued, one may be the outcome.
      if (candidates.length === 0 || (await mustWait())) return abandoned;
      for (const candidate of candidates) {
        const marked = await store.abandonExecution({ executionId: candidate.executionId, graceMs, now: at });
        if (marked) {
          abandoned.push(marked);
          deps.logger?.error(
            { executionId: marked.executionId, userId: marked.userId, holdIds: marked.holdIds },
            "execution abandoned mid-call: outcome unknown, nothing charged",
          );
        }
      }
      return abandoned;
    },

    /** The resource if `userId` owns it; RESOURCE_NOT_FOUND when it does not exist or is another user's (indistinguishable). */
    async getOwnedResource(userId: string, kind: string, resourceId: string): Promise<OwnedResource> {
      const owner = requireId("user_id", userId);
      const resource = await store.getOwnedResource(requireId("kind", kind), requireResourceId("resource_id", resourceId));
      if (!resource || resource.userId !== owner) throw resourceNotFound(kind, resourceId);
      return resource;
    },

    /** Admin: per UTC day and route, paid out against charged, with every platform loss of the days `fromDate`..`toDate`. */
    async reconciliation(fromDate: string, toDate: string): Promise<Reconciliation> {
      const range = requireDayRange(fromDate, toDate);
      const [charges, payments, losses, movements] = await Promise.all([
        store.sumCharges(range),
        store.sumPayments(range),
        store.listPlatformLosses(range),
        store.sumCreditMovements(range),
      ]);
      return { fromDate, toDate, ...reconciliationRows(charges, payments, losses), losses, creditMovements: creditMovementRows(movements) };
    },

    /** Admin: the outgoing payments booked in the days `fromDate`..`toDate`, oldest first. */
    async listOutgoingPayments(fromDate: string, toDate: string): Promise<OutgoingPayment[]> {
      return store.listPayments(requireDayRange(fromDate, toDate));
    },

    /** Executions running past their lease (their outcome awaited): the alert gauge. */
    async countIndeterminateExecutions(): Promise<number> {
      return store.countIndeterminateExecutions(now());
    },
  };
}

function quoteRefused(reason: QuoteRefusal, quoteId: string, amountCredits: number) {
  if (reason === "not_found") return quoteNotFound(quoteId);
  if (reason === "used") return quoteAlreadyUsed(quoteId);
  if (reason === "expired") return quoteExpired(quoteId);
  return quoteAmountMismatch(quoteId, amountCredits);
}
