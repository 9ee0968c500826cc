// Top-ups: money in. A user's x402 payment to the platform, recorded once per payment (network, asset,
// payer, EIP-3009 nonce) in states pending → credited | failed. The record is written `pending` before
// the facilitator is asked to settle, so a settlement whose answer is lost is never forgotten; it is
// credited (wallet + journal, in the same store operation as the state change) only once the
// facilitator confirmed the transfer, and a failed one credits nothing. Plain data and pure rules here;
// the stores apply them atomically.
import { createHash } from "node:crypto";
import type { JournalEntry, UsageItem, Wallet } from "./types";

export type TopUpState = "pending" | "credited" | "failed";

/** The journal reason of a top-up's credit (journal kind `grant`, reference = the top-up id). */
export const TOP_UP_REASON = "top_up";

export interface TopUpRecord {
  /** "tu_" + hex SHA-256 of (network, asset, payer, nonce): one per payment, whoever presents it. */
  topUpId: string;
  userId: string;
  /** CAIP-2, e.g. eip155:84532. */
  network: string;
  /** Token address, lowercase. */
  asset: string;
  /** Payer address, lowercase. */
  payer: string;
  /** EIP-3009 nonce (bytes32 hex), lowercase. */
  nonce: string;
  payTo: string;
  /** The authorized value in atomic units, as a decimal string. */
  amountAtomic: string;
  amountCredits: number;
  state: TopUpState;
  createdAt: Date;
  /** When a settlement was last asked for; a pending record is asked again only once this is old enough. */
  attemptedAt: Date;
  attempts: number;
  completedAt?: Date;
  /** The settlement's transaction reference (credited). */
  transaction?: string;
  /** The facilitator's reason (failed). */
  failureReason?: string;
  /** The facilitator's SettleResponse as JSON, replayed as PAYMENT-RESPONSE. */
  settlement?: string;
  /** The PaymentRequirements and the signed PaymentPayload (JSON): a pending payment is settled again from these. */
  requirements: string;
  payload: string;
}

/** The identity of a payment: one top-up per (network, asset, payer, nonce), case-insensitively. */
export function topUpIdOf(p: { network: string; asset: string; payer: string; nonce: string }): string {
  const key = [p.network, p.asset, p.payer, p.nonce].map((s) => s.toLowerCase()).join("\n");
  return `tu_${createHash("sha256").update(key).digest("hex")}`;
}

export interface StartTopUpCommand {
  /** The record to insert (state pending, attemptedAt = now, attempts 1) when the payment is new. */
  record: TopUpRecord;
  /** A pending record last attempted at or before this instant is attempted again (attemptedAt = now). */
  staleBefore: Date;
  now: Date;
}

/**
 * `started`: the payment is new, recorded pending: settle it. `retry`: it was pending with a stale
 * attempt, taken over now: ask the facilitator again. `exists`: anything else (credited, failed, a
 * pending attempt still running, or another user's): nothing was written.
 */
export type TopUpStart = { status: "started" | "retry" | "exists"; record: TopUpRecord };

export type TopUpOutcome =
  { state: "credited"; transaction?: string; settlement: string } | { state: "failed"; reason: string; settlement?: string };

export interface FinishTopUpCommand {
  topUpId: string;
  outcome: TopUpOutcome;
  now: Date;
}

/**
 * `finished`: the record left pending now (credited: with the wallet after the credit and its journal
 * entry). `already`: it had ended before (nothing written). `unknown`: no such record.
 */
export type TopUpFinish =
  | { status: "finished"; record: TopUpRecord; wallet?: Wallet; entry?: JournalEntry }
  | { status: "already"; record: TopUpRecord }
  | { status: "unknown" };

/** What startTopUp does with the record it found (or did not). */
export function decideTopUpStart(
  existing: TopUpRecord | null,
  cmd: StartTopUpCommand,
): { action: "insert" } | { action: "retry"; record: TopUpRecord } | { action: "exists" } {
  if (!existing) return { action: "insert" };
  if (
    existing.state === "pending" &&
    existing.userId === cmd.record.userId &&
    existing.attemptedAt.getTime() <= cmd.staleBefore.getTime()
  ) {
    return { action: "retry", record: { ...existing, attemptedAt: new Date(cmd.now), attempts: existing.attempts + 1 } };
  }
  return { action: "exists" };
}

/** The record once its outcome is known. */
export function finishedTopUp(record: TopUpRecord, outcome: TopUpOutcome, now: Date): TopUpRecord {
  const { transaction: _t, failureReason: _f, settlement: _s, ...rest } = record;
  return {
    ...rest,
    state: outcome.state,
    completedAt: new Date(now),
    ...(outcome.state === "credited"
      ? { ...(outcome.transaction ? { transaction: outcome.transaction } : {}), settlement: outcome.settlement }
      : { failureReason: outcome.reason, ...(outcome.settlement ? { settlement: outcome.settlement } : {}) }),
  };
}

/**
 * The usage item of a credited top-up, recorded with its journal entry (its id is the entry's): the
 * user's money history shows it as its own kind, with the payment's transaction as the reason.
 */
export function topUpUsageItem(entry: JournalEntry, record: TopUpRecord): UsageItem {
  return {
    kind: "top_up",
    usageId: entry.entryId,
    createdAt: new Date(entry.createdAt),
    userId: record.userId,
    productKey: "",
    capabilityKey: "",
    routeKey: "",
    provider: "",
    networkKey: record.network,
    status: "",
    durationMs: 0,
    traceId: "",
    creditsCharged: 0,
    amountCredits: record.amountCredits,
    reference: record.topUpId,
    reason: record.transaction ? `x402 payment ${record.transaction}` : "x402 payment",
    operator: "x402",
  };
}
