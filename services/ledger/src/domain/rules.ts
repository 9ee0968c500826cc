// The money and idempotency rules both stores apply inside their atomic operations: what a
// settlement moves, when a repeated hold is a replay, what a claim answers. Pure functions.
import type { ClaimOutcome, Hold, JournalKind, SettlementKind, StoredResult, UsageDraft, UsageItem } from "./types";

/** What ending a hold writes: its final state and charge, and the journal entry's two deltas. */
export interface SettlementEffect {
  state: Exclude<Hold["state"], "held">;
  capturedCredits: number;
  kind: JournalKind;
  /** Change of the available balance: the part of the hold that returns to the wallet. */
  amountCredits: number;
  /** Change of the held credits: the whole hold leaves. */
  heldDeltaCredits: number;
}

const END_STATE = { capture: "captured", release: "released", expiry: "expired" } as const;

/**
 * The effect of settling `hold` (amount H) with `kind`: a capture of C charges min(max(C, 0), H)
 * and returns the rest; a release or an expiry returns all of H.
 */
export function settlementEffect(hold: Pick<Hold, "amountCredits">, kind: SettlementKind, requestedCredits: number): SettlementEffect {
  const held = hold.amountCredits;
  const captured = kind === "capture" ? Math.min(Math.max(requestedCredits, 0), held) : 0;
  return { state: END_STATE[kind], capturedCredits: captured, kind, amountCredits: held - captured, heldDeltaCredits: -held };
}

/** A repeated HoldCredits is a replay only when it names the same user and amount. */
export function isSameHold(existing: Pick<Hold, "userId" | "amountCredits">, cmd: { userId: string; amountCredits: number }): boolean {
  return existing.userId === cmd.userId && existing.amountCredits === cmd.amountCredits;
}

/** A repeated grant id is a replay only when it names the same user and amount. */
export function isSameGrant(existing: { userId: string; amountCredits: number }, cmd: { userId: string; amountCredits: number }): boolean {
  return existing.userId === cmd.userId && existing.amountCredits === cmd.amountCredits;
}

/** The usage item of a hold that has ended: it carries what the hold really charged. */
export function usageItemFor(hold: Hold, draft: UsageDraft): UsageItem {
  return { ...draft, userId: hold.userId, holdId: hold.holdId, creditsCharged: hold.state === "captured" ? hold.capturedCredits : 0 };
}

/** An idempotency record as both stores keep it. */
export interface IdempotencyRecord {
  userId: string;
  key: string;
  requestHash: string;
  state: "in_progress" | "completed";
  leaseExpiresAt: Date;
  createdAt: Date;
  /** createdAt + retention; afterwards the record counts as absent. */
  expiresAt: Date;
  result?: StoredResult;
}

/**
 * What a claim does given the stored record (or none): create a new record, take over an
 * in-progress record whose lease ran out, or answer without writing.
 */
export function decideClaim(
  existing: IdempotencyRecord | null,
  cmd: { requestHash: string; now: Date },
): { action: "create" } | { action: "take_over" } | { action: "answer"; outcome: ClaimOutcome } {
  if (!existing || existing.expiresAt.getTime() <= cmd.now.getTime()) return { action: "create" };
  if (existing.requestHash !== cmd.requestHash) return { action: "answer", outcome: { state: "conflict" } };
  if (existing.state === "completed") return { action: "answer", outcome: { state: "completed", result: existing.result ?? { httpStatus: 0 } } };
  if (existing.leaseExpiresAt.getTime() > cmd.now.getTime()) {
    return { action: "answer", outcome: { state: "in_progress", leaseExpiresAt: existing.leaseExpiresAt } };
  }
  return { action: "take_over" };
}

/** A new in-progress record for `cmd`. */
export function newClaimRecord(cmd: { userId: string; key: string; requestHash: string; leaseMs: number; retentionMs: number; now: Date }): IdempotencyRecord {
  const now = cmd.now.getTime();
  return {
    userId: cmd.userId,
    key: cmd.key,
    requestHash: cmd.requestHash,
    state: "in_progress",
    leaseExpiresAt: new Date(now + cmd.leaseMs),
    createdAt: cmd.now,
    expiresAt: new Date(now + cmd.retentionMs),
  };
}
