// The money and idempotency rules both stores apply inside their atomic operations: what a new or
// settled hold looks like, what a settlement moves, when a repeated hold or grant is a replay, what
// a claim answers. Pure functions.
import type { ClaimOutcome, Hold, JournalKind, SettlementKind, StoredResult, UsageDraft, UsageItem, Wallet } from "./types";

/** The wallet of a user who has none yet: nothing available, nothing held. */
export function emptyWallet(userId: string): Wallet {
  return { userId, balanceCredits: 0, heldCredits: 0 };
}

/** A new hold in state `held`, as HoldCredits creates it. */
export function newHold(cmd: { holdId: string; userId: string; amountCredits: number; routeKey: string; expiresAt: Date; now: Date }): Hold {
  return {
    holdId: cmd.holdId,
    userId: cmd.userId,
    amountCredits: cmd.amountCredits,
    state: "held",
    capturedCredits: 0,
    createdAt: new Date(cmd.now),
    expiresAt: new Date(cmd.expiresAt),
    routeKey: cmd.routeKey,
  };
}

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

/** The state a hold ends in for each kind of settlement. */
export const END_STATE = { capture: "captured", release: "released", expiry: "expired" } as const satisfies Record<SettlementKind, Hold["state"]>;

/**
 * The effect of settling `hold` (amount H) with `kind`: a capture of C charges min(max(C, 0), H)
 * and returns the rest; a release or an expiry returns all of H.
 */
export function settlementEffect(hold: Pick<Hold, "amountCredits">, kind: SettlementKind, requestedCredits: number): SettlementEffect {
  const held = hold.amountCredits;
  const captured = kind === "capture" ? Math.min(Math.max(requestedCredits, 0), held) : 0;
  return { state: END_STATE[kind], capturedCredits: captured, kind, amountCredits: held - captured, heldDeltaCredits: -held };
}

/** `hold` after `effect` was applied at `now` (the hold's new, final state). */
export function settledHold(hold: Hold, effect: SettlementEffect, now: Date): Hold {
  return { ...hold, state: effect.state, capturedCredits: effect.capturedCredits, settledAt: new Date(now) };
}

/**
 * A repeated HoldCredits (same hold id) or GrantCredits (same grant id) is a replay only when it
 * names the same user and amount; anything else is a conflict.
 */
export function isReplay(existing: { userId: string; amountCredits: number }, cmd: { userId: string; amountCredits: number }): boolean {
  return existing.userId === cmd.userId && existing.amountCredits === cmd.amountCredits;
}

/** The usage item of a hold that has ended: it carries what the hold really charged. */
export function usageItemFor(hold: Hold, draft: UsageDraft): UsageItem {
  return { ...draft, userId: hold.userId, holdId: hold.holdId, creditsCharged: hold.state === "captured" ? hold.capturedCredits : 0 };
}

/** An idempotency record as both stores keep it; a completed record always carries its result. */
export type IdempotencyRecord = {
  userId: string;
  key: string;
  requestHash: string;
  leaseExpiresAt: Date;
  createdAt: Date;
  /** createdAt + retention; afterwards the record counts as absent. */
  expiresAt: Date;
} & ({ state: "in_progress"; result?: undefined } | { state: "completed"; result: StoredResult });

/** The id both stores key an idempotency record by: one record per (user, key). */
export function idempotencyId(userId: string, key: string): string {
  return JSON.stringify([userId, key]);
}

/** A record past its retention counts as absent (it may still be stored until it is purged). */
export function isPastRetention(record: Pick<IdempotencyRecord, "expiresAt">, now: Date): boolean {
  return record.expiresAt.getTime() <= now.getTime();
}

/**
 * What a claim does given the stored record (or none): create a new record, take over an
 * in-progress record whose lease ran out, or answer without writing.
 */
export function decideClaim(
  existing: IdempotencyRecord | null,
  cmd: { requestHash: string; now: Date },
): { action: "create" } | { action: "take_over" } | { action: "answer"; outcome: ClaimOutcome } {
  if (!existing || isPastRetention(existing, cmd.now)) return { action: "create" };
  if (existing.requestHash !== cmd.requestHash) return { action: "answer", outcome: { state: "conflict" } };
  if (existing.state === "completed") return { action: "answer", outcome: { state: "completed", result: existing.result } };
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
