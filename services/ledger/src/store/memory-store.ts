// The in-memory ledger store, for tests only (everything is lost with the process): plain maps.
// Atomicity: every method does all of its checks and writes synchronously, with no `await`
// between them, so on Node's single thread no other operation can interleave. Keep it that way.
// Values handed out are copies, so callers can never change stored state behind the store's back.
import { newId } from "@agentic/platform";
import type {
  ApiKeyLimits,
  ApiKeyRecord,
  ChargeTotal,
  ClaimOutcome,
  CreditMovementTotal,
  ExecutionRecord,
  Hold,
  JournalEntry,
  OutgoingPayment,
  OwnedResource,
  PaymentTotal,
  PlatformLoss,
  TimeRange,
  UsageItem,
  UsageQuery,
  Wallet,
} from "../domain/types";
import {
  abandonedExecution,
  bookedPayments,
  compareNewestFirst,
  completedExecution,
  decideCreditMovement,
  decideClaim,
  decideExecutionHold,
  emptyWallet,
  idempotencyId,
  isAbandoned,
  isPastRetention,
  isReplay,
  movementUsageItem,
  MOVEMENT_JOURNAL_KINDS,
  newClaimedExecution,
  newHold,
  ownedResources,
  platformLosses,
  settledHold,
  settlementEffect,
  usageItemFor,
  usagePosition,
  utcDay,
  type BookedFacts,
} from "../domain/rules";
import {
  copyTopUp,
  decideTopUpStart,
  finishedTopUp,
  topUpUsageItem,
  type FinishTopUpCommand,
  type StartTopUpCommand,
  type TopUpFinish,
  type TopUpRecord,
  type TopUpStart,
} from "../domain/top-up";
import { decideQuoteDraw, reservationHoldId, type CreateQuoteCommand, type CreateQuoteResult, type QuoteRecord } from "../domain/quote";
import {
  byPolicyOrder,
  coveringPolicies,
  decideSpend,
  endedDelta,
  heldDelta,
  periodStartDay,
  policyAgentKey,
  spendBucketOf,
  spendPeriod,
  spendUsageOfBuckets,
  type SpendBucket,
  type SpendBucketDelta,
  type SpendPolicy,
  type SpendUsage,
} from "../domain/spend-policy";
import type {
  AbandonCommand,
  ClaimCommand,
  CompleteExecutionCommand,
  CreditMovementCommand,
  CreditMovementResult,
  CompleteCommand,
  CompleteOutcome,
  GrantCommand,
  GrantResult,
  HoldCommand,
  HoldResult,
  LedgerStore,
  SettleCommand,
  SettleResult,
} from "../domain/ports";

/** Expired idempotency records are dropped at most this often (they already count as absent). */
const PURGE_INTERVAL_MS = 60_000;

const copy = <T>(value: T): T => structuredClone(value);

export class MemoryLedgerStore implements LedgerStore {
  private readonly wallets = new Map<string, Wallet>();
  private readonly holds = new Map<string, Hold>();
  private readonly journal = new Map<string, JournalEntry[]>(); // by user, oldest first
  private readonly grants = new Map<string, JournalEntry>(); // by grant id
  private readonly movements = new Map<string, JournalEntry>(); // refunds and adjustments, by reference
  private readonly topUps = new Map<string, TopUpRecord>(); // by top-up id
  private readonly usage = new Map<string, UsageItem[]>(); // by user, oldest first (reverse of compareNewestFirst)
  private readonly usageByHold = new Map<string, UsageItem>();
  private readonly keysById = new Map<string, ApiKeyRecord>();
  private readonly keysByHash = new Map<string, ApiKeyRecord>();
  private readonly executions = new Map<string, ExecutionRecord>();
  /** idempotencyId(user, key) → the execution id that key names. */
  private readonly executionByKey = new Map<string, string>();
  /** `kind\u0000resourceId` → the resource and its one owner. */
  private readonly resources = new Map<string, OwnedResource>();
  /** By payment id, in booking order. */
  private readonly payments = new Map<string, OutgoingPayment>();
  /** By payment id (one loss per payment), in writing order. */
  private readonly losses = new Map<string, PlatformLoss>();
  private readonly policies = new Map<string, SpendPolicy>(); // by JSON [keyId, agent or ""]
  private readonly quotes = new Map<string, QuoteRecord>();
  private readonly spendBuckets = new Map<string, SpendBucket>(); // by JSON [keyId, agent, capability, day]
  private lastPurge = 0;
  /** The data lives in this object only, so every instance is its own store. */
  private readonly id = newId("store");

  async ping(): Promise<void> {}

  async storeId(): Promise<string> {
    return this.id;
  }

  async close(): Promise<void> {}

  async insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }> {
    const existing = this.keysByHash.get(record.keyHash);
    if (existing) return { status: "exists", record: copy(existing) };
    const stored = copy(record);
    this.keysById.set(stored.keyId, stored);
    this.keysByHash.set(stored.keyHash, stored);
    return { status: "created", record: copy(stored) };
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const found = this.keysByHash.get(keyHash);
    return found ? copy(found) : null;
  }

  async listApiKeys(userId?: string): Promise<ApiKeyRecord[]> {
    return [...this.keysById.values()].filter((k) => userId === undefined || k.userId === userId).map(copy);
  }

  async revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    const found = this.keysById.get(keyId);
    if (!found) return null;
    found.revokedAt ??= new Date(now);
    return copy(found);
  }

  async setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null> {
    const found = this.keysById.get(keyId);
    if (!found) return null;
    if (limits) found.limits = copy(limits);
    else delete found.limits;
    return copy(found);
  }

  async getWallet(userId: string): Promise<Wallet> {
    return this.walletOf(userId);
  }

  async listWallets(): Promise<Wallet[]> {
    return [...this.wallets.values()].map(copy);
  }

  async grant(cmd: GrantCommand): Promise<GrantResult> {
    const existing = this.grants.get(cmd.grantId);
    if (existing) {
      if (!isReplay(existing, cmd)) return { status: "conflict", entry: copy(existing) };
      return { status: "replayed", wallet: this.walletOf(cmd.userId), entry: copy(existing) };
    }
    const entry = this.move(cmd.userId, "grant", cmd.grantId, cmd.amountCredits, 0, cmd.now, cmd.reason ? { reason: cmd.reason } : {});
    this.grants.set(cmd.grantId, entry);
    return { status: "granted", wallet: this.walletOf(cmd.userId), entry: copy(entry) };
  }

  async moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult> {
    // A grant id is a reference too: one movement per reference, whatever its kind.
    const existing = this.grants.get(cmd.reference) ?? this.movements.get(cmd.reference) ?? null;
    const decision = decideCreditMovement(existing, cmd, this.walletOf(cmd.userId).balanceCredits);
    if (decision.action === "conflict") return { status: "conflict", entry: copy(decision.entry) };
    if (decision.action === "replay") return { status: "replayed", wallet: this.walletOf(cmd.userId), entry: copy(decision.entry) };
    if (decision.action === "insufficient") return { status: "insufficient", wallet: this.walletOf(cmd.userId) };
    const entry = this.move(cmd.userId, cmd.kind, cmd.reference, cmd.amountCredits, 0, cmd.now, {
      reason: cmd.reason,
      operator: cmd.operator,
      ...(cmd.operatorName ? { operatorName: cmd.operatorName } : {}),
    });
    (cmd.kind === "grant" ? this.grants : this.movements).set(cmd.reference, entry);
    this.insertUsage(movementUsageItem(entry, cmd));
    return { status: "recorded", wallet: this.walletOf(cmd.userId), entry: copy(entry) };
  }

  async getTopUp(topUpId: string): Promise<TopUpRecord | null> {
    const found = this.topUps.get(topUpId);
    return found ? copyTopUp(found) : null;
  }

  async startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart> {
    const existing = this.topUps.get(cmd.record.topUpId) ?? null;
    const decision = decideTopUpStart(existing, cmd);
    if (decision.action === "exists") return { status: "exists", record: copyTopUp(existing!) };
    const record = decision.action === "insert" ? copyTopUp(cmd.record) : decision.record;
    this.topUps.set(record.topUpId, record);
    return { status: decision.action === "insert" ? "started" : "retry", record: copyTopUp(record) };
  }

  async finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish> {
    const existing = this.topUps.get(cmd.topUpId);
    if (!existing) return { status: "unknown" };
    if (existing.state !== "pending") return { status: "already", record: copyTopUp(existing) };
    const record = finishedTopUp(existing, cmd.outcome, cmd.now);
    if (record.state !== "credited") {
      this.topUps.set(record.topUpId, record);
      return { status: "finished", record: copyTopUp(record) };
    }
    // One mechanism for money in: a grant entry, keyed by the top-up id like any grant id.
    if (this.grants.has(record.topUpId)) throw new Error(`ledger invariant: top-up ${record.topUpId} already has a grant entry`);
    const entry = this.move(record.userId, "grant", record.topUpId, record.amountCredits, 0, cmd.now);
    this.grants.set(record.topUpId, entry);
    this.insertUsage(topUpUsageItem(entry, record));
    this.topUps.set(record.topUpId, record);
    return { status: "finished", record: copyTopUp(record), wallet: this.walletOf(record.userId), entry: copy(entry) };
  }

  async listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]> {
    return [...this.topUps.values()]
      .filter((r) => r.state === "pending" && r.attemptedAt.getTime() <= staleBefore.getTime())
      .sort((a, b) => a.attemptedAt.getTime() - b.attemptedAt.getTime())
      .slice(0, limit)
      .map(copyTopUp);
  }

  async hold(cmd: HoldCommand): Promise<HoldResult> {
    const existing = this.holds.get(cmd.holdId);
    if (existing) {
      if (!isReplay(existing, cmd)) return { status: "conflict", hold: copy(existing) };
      return { status: "replayed", hold: copy(existing), wallet: this.walletOf(existing.userId) };
    }
    // A quote to draw must be the user's, open and of this amount.
    const quote = cmd.quoteId !== undefined ? (this.quotes.get(cmd.quoteId) ?? null) : null;
    if (cmd.quoteId !== undefined) {
      const refused = decideQuoteDraw(quote, quote ? (this.holds.get(quote.reservationHoldId) ?? null) : null, cmd);
      if (refused) return { status: "quote_refused", reason: refused };
    }
    // The execution's fence first: an attempt that may not start is refused whatever the balance.
    let execution: ExecutionRecord | undefined;
    if (cmd.execution) {
      const decision = decideExecutionHold(this.liveExecution(cmd.execution.executionId, cmd.now), {
        userId: cmd.userId,
        holdId: cmd.holdId,
        execution: cmd.execution,
        now: cmd.now,
      });
      if (decision.action === "fenced") return { status: "fenced", reason: decision.reason };
      execution = decision.record;
    }
    if (cmd.spend) {
      const who = cmd.spend;
      const checks = coveringPolicies([...this.policies.values()], who).map((policy) => ({
        policy,
        usage: this.usageOf(policy, spendPeriod(policy, cmd.now).start),
      }));
      const refusal = decideSpend(checks, who, cmd.amountCredits, cmd.now);
      if (refusal) return { status: "spend_refused", refusal };
    }
    const reservation = quote ? this.holds.get(quote.reservationHoldId)! : undefined;
    const wallet = this.wallets.get(cmd.userId);
    if (!wallet || wallet.balanceCredits + (reservation?.amountCredits ?? 0) < cmd.amountCredits) {
      return { status: "insufficient", wallet: this.walletOf(cmd.userId) };
    }
    if (quote && reservation) {
      // The reservation ends and its credits go straight into this hold (one operation: nobody else can take them).
      const effect = settlementEffect(reservation, "release", 0);
      this.move(reservation.userId, effect.kind, reservation.holdId, effect.amountCredits, effect.heldDeltaCredits, cmd.now);
      const ended = settledHold(reservation, effect, cmd.now);
      this.holds.set(reservation.holdId, ended);
      this.moveSpend(reservation, endedDelta(reservation, ended));
      this.quotes.set(quote.quoteId, { ...quote, usedByHoldId: cmd.holdId });
    }
    const hold = newHold(cmd);
    this.move(cmd.userId, "hold", cmd.holdId, -cmd.amountCredits, cmd.amountCredits, cmd.now);
    this.holds.set(hold.holdId, hold);
    this.moveSpend(hold, heldDelta(hold.amountCredits));
    if (execution) this.executions.set(execution.executionId, execution);
    return { status: "created", hold: copy(hold), wallet: this.walletOf(cmd.userId) };
  }

  async getHold(holdId: string): Promise<Hold | null> {
    const hold = this.holds.get(holdId);
    return hold ? copy(hold) : null;
  }

  async settleHold(cmd: SettleCommand): Promise<SettleResult> {
    const hold = this.holds.get(cmd.holdId);
    if (!hold) return { status: "unknown_hold" };
    if (hold.userId !== cmd.userId) return { status: "user_mismatch", hold: copy(hold) };
    if (hold.state !== "held") {
      const usageRecorded = this.recordUsage(hold, cmd);
      return { status: "already_settled", hold: copy(hold), usageRecorded, booked: this.book(hold, cmd) };
    }
    const effect = settlementEffect(hold, cmd.kind, cmd.capturedCredits);
    this.move(hold.userId, effect.kind, hold.holdId, effect.amountCredits, effect.heldDeltaCredits, cmd.now);
    const settled = settledHold(hold, effect, cmd.now);
    this.holds.set(settled.holdId, settled);
    this.moveSpend(hold, endedDelta(hold, settled));
    const usageRecorded = this.recordUsage(settled, cmd);
    const booked = this.book(settled, cmd);
    if (cmd.outcome && settled.executionId) this.complete(settled.executionId, settled.userId, cmd.outcome, cmd.now);
    return { status: "applied", hold: copy(settled), wallet: this.walletOf(settled.userId), usageRecorded, booked };
  }

  async setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy> {
    const id = JSON.stringify([policy.keyId, policyAgentKey(policy.agentName)]);
    const existing = this.policies.get(id);
    const stored = { ...copy(policy), createdAt: new Date(existing?.createdAt ?? policy.createdAt) };
    this.policies.set(id, stored);
    return copy(stored);
  }

  async clearSpendPolicy(keyId: string, agentName?: string): Promise<boolean> {
    return this.policies.delete(JSON.stringify([keyId, policyAgentKey(agentName)]));
  }

  async listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]> {
    const wanted = new Set(keyIds);
    return [...this.policies.values()]
      .filter((p) => wanted.has(p.keyId))
      .sort(byPolicyOrder)
      .map(copy);
  }

  async spendUsage(policy: Pick<SpendPolicy, "keyId" | "agentName">, since: Date): Promise<SpendUsage> {
    return this.usageOf(policy, since);
  }

  async createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult> {
    const existing = this.quotes.get(cmd.quoteId);
    if (existing) {
      if (!isReplay(existing, cmd)) return { status: "conflict", quote: copy(existing) };
      return { status: "replayed", quote: copy(existing), wallet: this.walletOf(existing.userId) };
    }
    const wallet = this.wallets.get(cmd.userId);
    if (!wallet || wallet.balanceCredits < cmd.amountCredits) return { status: "insufficient", wallet: this.walletOf(cmd.userId) };
    const { now, ...fields } = cmd;
    const quote: QuoteRecord = { ...fields, reservationHoldId: reservationHoldId(cmd.quoteId) };
    const hold = newHold({ ...cmd, holdId: quote.reservationHoldId });
    this.move(cmd.userId, "hold", hold.holdId, -cmd.amountCredits, cmd.amountCredits, now);
    this.holds.set(hold.holdId, hold);
    this.quotes.set(quote.quoteId, quote);
    return { status: "created", quote: copy(quote), wallet: this.walletOf(cmd.userId) };
  }

  async getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null> {
    const quote = this.quotes.get(quoteId);
    if (!quote) return null;
    const reservation = this.holds.get(quote.reservationHoldId);
    return { quote: copy(quote), reservation: reservation ? copy(reservation) : null };
  }

  async listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    return [...this.holds.values()]
      .filter((h) => h.state === "held" && h.expiresAt.getTime() <= now.getTime())
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .slice(0, limit)
      .map(copy);
  }

  async listUsage(userId: string, limit: number, query: UsageQuery = {}): Promise<UsageItem[]> {
    const items = this.usage.get(userId) ?? [];
    const found: UsageItem[] = [];
    for (let i = items.length - 1; i >= 0 && found.length < limit; i--) {
      const item = items[i]!;
      if (query.after && compareNewestFirst(usagePosition(item), query.after) <= 0) continue;
      if (query.from && item.createdAt.getTime() < query.from.getTime()) continue;
      if (query.to && item.createdAt.getTime() >= query.to.getTime()) continue;
      if (query.agentName !== undefined && item.agentName !== query.agentName) continue;
      if (query.capabilityKey !== undefined && item.capabilityKey !== query.capabilityKey) continue;
      if (query.kind !== undefined && item.kind !== query.kind) continue;
      found.push(copy(item));
    }
    return found;
  }

  async listJournal(userId: string): Promise<JournalEntry[]> {
    return (this.journal.get(userId) ?? []).map(copy);
  }

  async claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    this.purgePastRetention(cmd.now);
    const keyId = idempotencyId(cmd.userId, cmd.key);
    const existingId = this.executionByKey.get(keyId);
    const existing = existingId ? (this.executions.get(existingId) ?? null) : null;
    const decision = decideClaim(existing, cmd);
    if (decision.action === "answer") return copy(decision.outcome);
    // create, or take over a claim that never held anything: the old execution id is dropped with it.
    if (existing) this.executions.delete(existing.executionId);
    const record = newClaimedExecution(cmd);
    this.executions.set(record.executionId, record);
    this.executionByKey.set(keyId, record.executionId);
    return { state: "claimed", executionId: record.executionId };
  }

  async completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    const executionId = this.executionByKey.get(idempotencyId(cmd.userId, cmd.key));
    if (!executionId) return "not_found";
    return this.complete(executionId, cmd.userId, cmd.result, cmd.now);
  }

  async completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome> {
    return this.complete(cmd.executionId, cmd.userId, cmd.result, cmd.now);
  }

  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    const record = this.executions.get(executionId);
    return record ? copy(record) : null;
  }

  async listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]> {
    return [...this.executions.values()]
      .filter((e) => isAbandoned(e, this.holdStates(e), now, graceMs))
      .sort((a, b) => a.leaseExpiresAt.getTime() - b.leaseExpiresAt.getTime())
      .slice(0, limit)
      .map(copy);
  }

  async abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null> {
    const record = this.executions.get(cmd.executionId);
    if (!record || !isAbandoned(record, this.holdStates(record), cmd.now, cmd.graceMs)) return null;
    const abandoned = abandonedExecution(record, cmd.now);
    this.executions.set(abandoned.executionId, abandoned);
    return copy(abandoned);
  }

  async countIndeterminateExecutions(now: Date): Promise<number> {
    let count = 0;
    for (const e of this.executions.values()) if (e.state === "running" && e.leaseExpiresAt.getTime() <= now.getTime()) count++;
    return count;
  }

  async getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null> {
    const found = this.resources.get(resourceKey(kind, resourceId));
    return found ? copy(found) : null;
  }

  async listPayments(range: TimeRange): Promise<OutgoingPayment[]> {
    return [...this.payments.values()].filter((p) => inRange(p.bookedAt, range)).map(copy);
  }

  async listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]> {
    return [...this.losses.values()].filter((l) => inRange(l.createdAt, range)).map(copy);
  }

  async sumCharges(range: TimeRange): Promise<ChargeTotal[]> {
    const sums = new Map<string, ChargeTotal>();
    for (const h of this.holds.values()) {
      if (h.state !== "captured" || !h.settledAt || !inRange(h.settledAt, range)) continue;
      const day = utcDay(h.settledAt);
      const key = `${day}\u0000${h.routeKey}`;
      const sum = sums.get(key) ?? { day, routeKey: h.routeKey, chargedCredits: 0, captures: 0 };
      sum.chargedCredits += h.capturedCredits;
      sum.captures += 1;
      sums.set(key, sum);
    }
    return [...sums.values()];
  }

  async sumPayments(range: TimeRange): Promise<PaymentTotal[]> {
    const sums = new Map<string, PaymentTotal>();
    for (const p of this.payments.values()) {
      if (!inRange(p.bookedAt, range)) continue;
      const day = utcDay(p.bookedAt);
      const key = `${day}\u0000${p.routeKey}\u0000${p.settlement}`;
      const sum = sums.get(key) ?? { day, routeKey: p.routeKey, settlement: p.settlement, amountMicroUsd: 0, payments: 0 };
      sum.amountMicroUsd += p.amountMicroUsd;
      sum.payments += 1;
      sums.set(key, sum);
    }
    return [...sums.values()];
  }

  async sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]> {
    const sums = new Map<string, CreditMovementTotal>();
    for (const entries of this.journal.values()) {
      for (const e of entries) {
        if (!MOVEMENT_JOURNAL_KINDS.includes(e.kind) || !inRange(e.createdAt, range)) continue;
        const day = utcDay(e.createdAt);
        const key = `${day}\u0000${e.kind}`;
        const sum = sums.get(key) ?? { day, kind: e.kind as CreditMovementTotal["kind"], movements: 0, addedCredits: 0, removedCredits: 0 };
        sum.movements += 1;
        if (e.amountCredits >= 0) sum.addedCredits += e.amountCredits;
        else sum.removedCredits -= e.amountCredits;
        sums.set(key, sum);
      }
    }
    return [...sums.values()];
  }

  /** Everything the store holds, as plain data (tests use it to prove what is and is not stored). */
  snapshot(): Record<string, unknown> {
    return copy({
      wallets: [...this.wallets.values()],
      holds: [...this.holds.values()],
      journal: [...this.journal.values()].flat(),
      usage: [...this.usage.values()].flat(),
      apiKeys: [...this.keysById.values()],
      executions: [...this.executions.values()],
      resources: [...this.resources.values()],
      payments: [...this.payments.values()],
      losses: [...this.losses.values()],
    });
  }

  /**
   * Books what a settlement of the ended `hold` carries, each once: its payments, the loss of each when
   * the hold charged nothing, its resources (the first owner stays). Returns what was new.
   */
  private book(hold: Hold, cmd: SettleCommand): BookedFacts {
    const booked: BookedFacts = { payments: [], losses: [], resourceConflicts: [] };
    const carried = bookedPayments(hold, cmd.payments ?? [], cmd.now).map((p) => {
      const existing = this.payments.get(p.paymentId);
      if (existing) return existing;
      this.payments.set(p.paymentId, p);
      booked.payments.push(copy(p));
      return p;
    });
    for (const loss of platformLosses(hold, cmd.kind, carried, cmd.usage?.errorCode, cmd.now)) {
      if (this.losses.has(loss.paymentId)) continue;
      this.losses.set(loss.paymentId, loss);
      booked.losses.push(copy(loss));
    }
    for (const resource of ownedResources(hold, cmd.resources ?? [], cmd.now)) {
      const key = resourceKey(resource.kind, resource.resourceId);
      const existing = this.resources.get(key);
      if (!existing) this.resources.set(key, resource);
      else if (existing.userId !== resource.userId) booked.resourceConflicts.push(copy(existing));
    }
    return booked;
  }

  /**
   * Applies one journal entry to the user's wallet. Refuses (throws, writing nothing) a movement
   * that would take the balance or the held credits below zero: callers check first, this is the
   * last line of defence.
   */
  private move(
    userId: string,
    kind: JournalEntry["kind"],
    referenceId: string,
    amountCredits: number,
    heldDeltaCredits: number,
    now: Date,
    record: Pick<JournalEntry, "reason" | "operator" | "operatorName"> = {},
  ): JournalEntry {
    const wallet = this.wallets.get(userId) ?? emptyWallet(userId);
    const balanceCredits = wallet.balanceCredits + amountCredits;
    const heldCredits = wallet.heldCredits + heldDeltaCredits;
    if (balanceCredits < 0 || heldCredits < 0) {
      throw new Error(`ledger invariant: ${kind} ${referenceId} would leave ${userId} at balance ${balanceCredits}, held ${heldCredits}`);
    }
    const entry: JournalEntry = {
      entryId: newId("journal"),
      userId,
      kind,
      amountCredits,
      heldDeltaCredits,
      referenceId,
      createdAt: new Date(now),
      ...record,
    };
    this.wallets.set(userId, { userId, balanceCredits, heldCredits });
    const entries = this.journal.get(userId) ?? [];
    entries.push(entry);
    this.journal.set(userId, entries);
    return entry;
  }

  /** Records the usage item of an ended hold once; true when it was recorded by this call. */
  private recordUsage(hold: Hold, cmd: SettleCommand): boolean {
    if (!cmd.usage || this.usageByHold.has(hold.holdId)) return false;
    const item = usageItemFor(hold, cmd.usage);
    this.usageByHold.set(hold.holdId, item);
    this.insertUsage(item);
    return true;
  }

  /** Adds an item to its user's list, kept oldest first by position; items almost always arrive in order, so search from the end. */
  private insertUsage(item: UsageItem): void {
    const items = this.usage.get(item.userId) ?? [];
    const position = usagePosition(item);
    let at = items.length;
    while (at > 0 && compareNewestFirst(usagePosition(items[at - 1]!), position) < 0) at--;
    items.splice(at, 0, item);
    this.usage.set(item.userId, items);
  }

  /** What the holds a policy covers spent since `since`'s day, from the buckets (synchronous: part of the hold's atomic step). */
  private usageOf(policy: Pick<SpendPolicy, "keyId" | "agentName">, since: Date): SpendUsage {
    const fromDay = periodStartDay(since);
    return spendUsageOfBuckets(
      [...this.spendBuckets.values()].filter(
        (b) => b.keyId === policy.keyId && (policy.agentName === undefined || b.agentName === policy.agentName) && b.day >= fromDay,
      ),
    );
  }

  /** Moves the spend bucket of `hold` (none without spend attribution) by `delta`. */
  private moveSpend(hold: Hold, delta: SpendBucketDelta): void {
    const at = spendBucketOf(hold);
    if (!at) return;
    const id = JSON.stringify([at.keyId, at.agentName, at.capabilityKey, at.day]);
    const b = this.spendBuckets.get(id) ?? { ...at, heldCredits: 0, heldCount: 0, capturedCredits: 0, capturedCount: 0 };
    this.spendBuckets.set(id, {
      ...b,
      heldCredits: b.heldCredits + delta.heldCredits,
      heldCount: b.heldCount + delta.heldCount,
      capturedCredits: b.capturedCredits + delta.capturedCredits,
      capturedCount: b.capturedCount + delta.capturedCount,
    });
  }

  private walletOf(userId: string): Wallet {
    return copy(this.wallets.get(userId) ?? emptyWallet(userId));
  }

  /** An execution, unless past its retention (then it counts as absent). */
  private liveExecution(executionId: string, now: Date): ExecutionRecord | null {
    const record = this.executions.get(executionId);
    return record && !isPastRetention(record, now) ? record : null;
  }

  /** Ends the execution with `result` when it is the user's and still open (the first completion wins). */
  private complete(executionId: string, userId: string, result: ExecutionRecord["result"] & object, now: Date): CompleteOutcome {
    const record = this.liveExecution(executionId, now);
    if (!record || record.userId !== userId) return "not_found";
    const completed = completedExecution(record, result, now);
    if (!completed) return "already_completed";
    this.executions.set(executionId, completed);
    return "completed";
  }

  private holdStates(record: ExecutionRecord): Hold["state"][] {
    return record.holdIds.map((id) => this.holds.get(id)?.state ?? "released");
  }

  /** Drops executions past their retention (with their key), at most once a minute. */
  private purgePastRetention(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    for (const [id, record] of this.executions) {
      if (!isPastRetention(record, now)) continue;
      this.executions.delete(id);
      if (record.idempotencyKey) {
        const keyId = idempotencyId(record.userId, record.idempotencyKey);
        if (this.executionByKey.get(keyId) === id) this.executionByKey.delete(keyId);
      }
    }
  }
}

const resourceKey = (kind: string, resourceId: string) => `${kind}\u0000${resourceId}`;

const inRange = (at: Date, range: TimeRange) => at.getTime() >= range.from.getTime() && at.getTime() < range.to.getTime();
