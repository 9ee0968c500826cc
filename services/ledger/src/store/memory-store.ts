// The embedded ledger store (the default outside production): plain maps in this process.
// Atomicity: every method does all of its checks and writes synchronously, with no `await`
// between them, so on Node's single thread no other operation can interleave. Keep it that way.
// Values handed out are copies, so callers can never change stored state behind the store's back.
import { newId } from "@agentic/platform";
import type { ApiKeyRecord, ClaimOutcome, Hold, JournalEntry, UsageItem, Wallet } from "../domain/types";
import {
  decideClaim,
  emptyWallet,
  idempotencyId,
  isPastRetention,
  isReplay,
  newClaimRecord,
  newHold,
  settledHold,
  settlementEffect,
  usageItemFor,
  type IdempotencyRecord,
} from "../domain/rules";
import type {
  ClaimCommand,
  CompleteCommand,
  CompleteOutcome,
  GrantCommand,
  GrantResult,
  HoldCommand,
  HoldResult,
  LedgerStore,
  SettleCommand,
  SettleResult,
} from "./store";

/** Expired idempotency records are dropped at most this often (they already count as absent). */
const PURGE_INTERVAL_MS = 60_000;

const copy = <T>(value: T): T => structuredClone(value);

export class MemoryLedgerStore implements LedgerStore {
  private readonly wallets = new Map<string, Wallet>();
  private readonly holds = new Map<string, Hold>();
  private readonly journal = new Map<string, JournalEntry[]>(); // by user, oldest first
  private readonly grants = new Map<string, JournalEntry>(); // by grant id
  private readonly usage = new Map<string, UsageItem[]>(); // by user, oldest first
  private readonly usageByHold = new Map<string, UsageItem>();
  private readonly keysById = new Map<string, ApiKeyRecord>();
  private readonly keysByHash = new Map<string, ApiKeyRecord>();
  private readonly idempotency = new Map<string, IdempotencyRecord>();
  private lastPurge = 0;

  async ping(): Promise<void> {}

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
    const entry = this.move(cmd.userId, "grant", cmd.grantId, cmd.amountCredits, 0, cmd.now);
    this.grants.set(cmd.grantId, entry);
    return { status: "granted", wallet: this.walletOf(cmd.userId), entry: copy(entry) };
  }

  async hold(cmd: HoldCommand): Promise<HoldResult> {
    const existing = this.holds.get(cmd.holdId);
    if (existing) {
      if (!isReplay(existing, cmd)) return { status: "conflict", hold: copy(existing) };
      return { status: "replayed", hold: copy(existing), wallet: this.walletOf(existing.userId) };
    }
    const wallet = this.wallets.get(cmd.userId);
    if (!wallet || wallet.balanceCredits < cmd.amountCredits) {
      return { status: "insufficient", wallet: this.walletOf(cmd.userId) };
    }
    const hold = newHold(cmd);
    this.move(cmd.userId, "hold", cmd.holdId, -cmd.amountCredits, cmd.amountCredits, cmd.now);
    this.holds.set(hold.holdId, hold);
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
      return { status: "already_settled", hold: copy(hold), usageRecorded };
    }
    const effect = settlementEffect(hold, cmd.kind, cmd.capturedCredits);
    this.move(hold.userId, effect.kind, hold.holdId, effect.amountCredits, effect.heldDeltaCredits, cmd.now);
    const settled = settledHold(hold, effect, cmd.now);
    this.holds.set(settled.holdId, settled);
    const usageRecorded = this.recordUsage(settled, cmd);
    return { status: "applied", hold: copy(settled), wallet: this.walletOf(settled.userId), usageRecorded };
  }

  async listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    return [...this.holds.values()]
      .filter((h) => h.state === "held" && h.expiresAt.getTime() <= now.getTime())
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .slice(0, limit)
      .map(copy);
  }

  async listUsage(userId: string, limit: number): Promise<UsageItem[]> {
    return (this.usage.get(userId) ?? []).slice(-limit).reverse().map(copy);
  }

  async listJournal(userId: string): Promise<JournalEntry[]> {
    return (this.journal.get(userId) ?? []).map(copy);
  }

  async claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    this.purgeExpiredClaims(cmd.now);
    const id = idempotencyId(cmd.userId, cmd.key);
    const existing = this.idempotency.get(id) ?? null;
    const decision = decideClaim(existing, cmd);
    if (decision.action === "answer") return copy(decision.outcome);
    if (decision.action === "take_over" && existing) {
      existing.leaseExpiresAt = new Date(cmd.now.getTime() + cmd.leaseMs);
    } else {
      this.idempotency.set(id, newClaimRecord(cmd));
    }
    return { state: "claimed" };
  }

  async completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    const id = idempotencyId(cmd.userId, cmd.key);
    const record = this.idempotency.get(id);
    if (!record || isPastRetention(record, cmd.now)) return "not_found";
    if (record.state === "completed") return "already_completed";
    this.idempotency.set(id, { ...record, state: "completed", result: copy(cmd.result) });
    return "completed";
  }

  /** Everything the store holds, as plain data (tests use it to prove what is and is not stored). */
  snapshot(): Record<string, unknown> {
    return copy({
      wallets: [...this.wallets.values()],
      holds: [...this.holds.values()],
      journal: [...this.journal.values()].flat(),
      usage: [...this.usage.values()].flat(),
      apiKeys: [...this.keysById.values()],
      idempotency: [...this.idempotency.values()],
    });
  }

  /**
   * Applies one journal entry to the user's wallet. Refuses (throws, writing nothing) a movement
   * that would take the balance or the held credits below zero: callers check first, this is the
   * last line of defence.
   */
  private move(userId: string, kind: JournalEntry["kind"], referenceId: string, amountCredits: number, heldDeltaCredits: number, now: Date): JournalEntry {
    const wallet = this.wallets.get(userId) ?? emptyWallet(userId);
    const balanceCredits = wallet.balanceCredits + amountCredits;
    const heldCredits = wallet.heldCredits + heldDeltaCredits;
    if (balanceCredits < 0 || heldCredits < 0) {
      throw new Error(`ledger invariant: ${kind} ${referenceId} would leave ${userId} at balance ${balanceCredits}, held ${heldCredits}`);
    }
    const entry: JournalEntry = { entryId: newId("journal"), userId, kind, amountCredits, heldDeltaCredits, referenceId, createdAt: new Date(now) };
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
    const items = this.usage.get(hold.userId) ?? [];
    // Keep oldest-first by createdAt; items almost always arrive in order, so search from the end.
    let at = items.length;
    while (at > 0 && items[at - 1]!.createdAt.getTime() > item.createdAt.getTime()) at--;
    items.splice(at, 0, item);
    this.usage.set(hold.userId, items);
    return true;
  }

  private walletOf(userId: string): Wallet {
    return copy(this.wallets.get(userId) ?? emptyWallet(userId));
  }

  private purgeExpiredClaims(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    for (const [id, record] of this.idempotency) if (isPastRetention(record, now)) this.idempotency.delete(id);
  }
}
