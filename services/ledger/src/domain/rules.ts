// The money and idempotency rules both stores apply inside their atomic operations: what a new or
// settled hold looks like, what a settlement moves, when a repeated hold or grant is a replay, what
// a claim answers. Pure functions.
import {
  FINAL_EXECUTION_STATES,
  PAID_SETTLEMENTS,
  type ChargeTotal,
  type ClaimOutcome,
  type CreditMovementKind,
  type CreditMovementTotal,
  type ExecutionRecord,
  type Hold,
  type JournalEntry,
  type JournalKind,
  type OutgoingPayment,
  type OwnedResource,
  type PaymentDraft,
  type PaymentTotal,
  type PlatformLoss,
  type PlatformLossReason,
  type ResourceDraft,
  type SettlementKind,
  type StoredResult,
  type UnchargedWork,
  type UnchargedWorkDraft,
  type UsageDraft,
  type UsageItem,
  type UsagePosition,
  type Wallet,
} from "./types";

/** The wallet of a user who has none yet: nothing available, nothing held. */
export function emptyWallet(userId: string): Wallet {
  return { userId, balanceCredits: 0, heldCredits: 0 };
}

/** A new hold in state `held`, as HoldCredits creates it. */
export function newHold(cmd: {
  holdId: string;
  userId: string;
  amountCredits: number;
  routeKey: string;
  expiresAt: Date;
  now: Date;
  execution?: { executionId: string };
  spend?: { keyId: string; agentName?: string; capabilityKey: string };
}): Hold {
  return {
    ...(cmd.execution ? { executionId: cmd.execution.executionId } : {}),
    ...(cmd.spend
      ? {
          keyId: cmd.spend.keyId,
          ...(cmd.spend.agentName !== undefined ? { agentName: cmd.spend.agentName } : {}),
          ...(cmd.spend.capabilityKey ? { capabilityKey: cmd.spend.capabilityKey } : {}),
        }
      : {}),
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
export const END_STATE = { capture: "captured", release: "released", expiry: "expired" } as const satisfies Record<
  SettlementKind,
  Hold["state"]
>;

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
  return {
    ...draft,
    kind: "charge",
    userId: hold.userId,
    holdId: hold.holdId,
    creditsCharged: hold.state === "captured" ? hold.capturedCredits : 0,
  };
}

/** An operator's grant, refund or adjustment as the store records it (validated by the domain). */
export interface CreditMovement {
  kind: CreditMovementKind;
  userId: string;
  /** Signed credits added to the available balance (a grant is positive). */
  amountCredits: number;
  reason: string;
  /** The caller's idempotency reference: one movement per reference, whatever its kind. */
  reference: string;
  /** The verified caller identity, and the name of the person it gave. */
  operator: string;
  operatorName?: string;
}

/** Journal kinds that share the reference space of credit movements (a grant id is a reference too). */
export const MOVEMENT_JOURNAL_KINDS: readonly JournalKind[] = ["grant", "refund", "adjustment"];

/**
 * What recording `cmd` does, given the grant, refund or adjustment entry already under its reference
 * (or none) and the user's available balance: a replay (same user, kind and amount), a conflict
 * (anything else), `insufficient` (a negative amount the balance does not cover), or `apply`.
 */
export function decideCreditMovement(
  existing: JournalEntry | null,
  cmd: Pick<CreditMovement, "kind" | "userId" | "amountCredits">,
  balanceCredits: number,
): { action: "replay" | "conflict"; entry: JournalEntry } | { action: "insufficient" | "apply" } {
  if (existing) return { action: existing.kind === cmd.kind && isReplay(existing, cmd) ? "replay" : "conflict", entry: existing };
  if (cmd.amountCredits < 0 && balanceCredits + cmd.amountCredits < 0) return { action: "insufficient" };
  return { action: "apply" };
}

/** The usage item of a credit movement, recorded with its journal entry (its id is the entry's). */
export function movementUsageItem(entry: JournalEntry, cmd: CreditMovement): UsageItem {
  return {
    kind: cmd.kind,
    usageId: entry.entryId,
    createdAt: new Date(entry.createdAt),
    userId: cmd.userId,
    productKey: "",
    capabilityKey: "",
    routeKey: "",
    provider: "",
    networkKey: "",
    status: "",
    durationMs: 0,
    traceId: "",
    creditsCharged: 0,
    amountCredits: cmd.amountCredits,
    reference: cmd.reference,
    reason: cmd.reason,
    operator: cmd.operator,
    ...(cmd.operatorName ? { operatorName: cmd.operatorName } : {}),
  };
}

/** An item's place in newest-first order: createdAt, then its key (the hold id of a charge, else the item's own id). */
export function usagePosition(item: Pick<UsageItem, "createdAt" | "holdId" | "usageId">): UsagePosition {
  return { createdAt: new Date(item.createdAt), key: item.holdId ?? item.usageId };
}

/** A reconciliation's credit movements of one UTC day (`date`, as its rows) and kind. */
export type CreditMovementRowData = Omit<CreditMovementTotal, "day"> & { date: string };

/** The store's credit movement totals as the reconciliation shows them, by day, then kind. */
export function creditMovementRows(totals: readonly CreditMovementTotal[]): CreditMovementRowData[] {
  return totals
    .map(({ day, ...rest }) => ({ date: day, ...rest }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** A record past its retention counts as absent (it may still be stored until it is purged). */
export function isPastRetention(record: Pick<ExecutionRecord, "expiresAt">, now: Date): boolean {
  return record.expiresAt.getTime() <= now.getTime();
}

export function isFinal(record: Pick<ExecutionRecord, "state">): boolean {
  return FINAL_EXECUTION_STATES.includes(record.state);
}

/**
 * What a claim does given the execution its key names (or none): create a new execution, take over
 * a claimed one whose lease ran out (nothing was held for it, so no provider was reached), or answer
 * without writing. A `running` execution is never taken over: it may have paid a provider already.
 */
export function decideClaim(
  existing: ExecutionRecord | null,
  cmd: { requestHash: string; now: Date },
): { action: "create" } | { action: "take_over" } | { action: "answer"; outcome: ClaimOutcome } {
  if (!existing || isPastRetention(existing, cmd.now)) return { action: "create" };
  if (existing.requestHash !== cmd.requestHash) return { action: "answer", outcome: { state: "conflict" } };
  if (isFinal(existing))
    return {
      action: "answer",
      outcome: { state: "completed", executionId: existing.executionId, result: existing.result ?? { httpStatus: 500 } },
    };
  if (existing.state === "running" || existing.leaseExpiresAt.getTime() > cmd.now.getTime()) {
    return {
      action: "answer",
      outcome: {
        state: "in_progress",
        executionId: existing.executionId,
        leaseExpiresAt: existing.leaseExpiresAt,
        started: existing.state === "running",
      },
    };
  }
  return { action: "take_over" };
}

/** A new claimed execution for an Idempotency-Key claim (also what a take-over replaces the old one with). */
export function newClaimedExecution(cmd: {
  executionId: string;
  userId: string;
  capabilityKey: string;
  key: string;
  requestHash: string;
  leaseMs: number;
  retentionMs: number;
  now: Date;
}): ExecutionRecord {
  const now = cmd.now.getTime();
  return {
    executionId: cmd.executionId,
    userId: cmd.userId,
    capabilityKey: cmd.capabilityKey,
    idempotencyKey: cmd.key,
    requestHash: cmd.requestHash,
    state: "claimed",
    leaseExpiresAt: new Date(now + cmd.leaseMs),
    createdAt: new Date(cmd.now),
    expiresAt: new Date(now + cmd.retentionMs),
    holdIds: [],
  };
}

/** The execution a hold names, as HoldCredits tells it. */
export interface HoldExecution {
  executionId: string;
  capabilityKey: string;
  /** Set when the execution runs under an Idempotency-Key (which must have claimed it). */
  idempotencyKey?: string;
  leaseMs: number;
  retentionMs: number;
}

/**
 * Whether a hold may be placed for an attempt of `execution`, given its stored record: a keyed
 * execution must still be the key's claim (not taken over, not ended); an execution without a key is
 * created by its first hold. `fenced`: no hold, no provider call. On `place`, the record to store.
 */
export function decideExecutionHold(
  existing: ExecutionRecord | null,
  cmd: { userId: string; holdId: string; execution: HoldExecution; now: Date },
): { action: "place"; record: ExecutionRecord } | { action: "fenced"; reason: string } {
  const { execution, now } = cmd;
  if (!existing) {
    if (execution.idempotencyKey) return { action: "fenced", reason: "the Idempotency-Key no longer names this execution" };
    const at = now.getTime();
    return {
      action: "place",
      record: {
        executionId: execution.executionId,
        userId: cmd.userId,
        capabilityKey: execution.capabilityKey,
        state: "running",
        leaseExpiresAt: new Date(at + execution.leaseMs),
        createdAt: new Date(now),
        expiresAt: new Date(at + execution.retentionMs),
        holdIds: [cmd.holdId],
      },
    };
  }
  if (existing.userId !== cmd.userId) return { action: "fenced", reason: "the execution belongs to another user" };
  if (isFinal(existing)) return { action: "fenced", reason: `the execution has ended (${existing.state})` };
  if (existing.state === "claimed" && existing.leaseExpiresAt.getTime() <= now.getTime()) {
    // A retry may take the claim over at any moment now; an attempt started this late could run twice.
    return { action: "fenced", reason: "the claim's lease ran out before the first attempt" };
  }
  const holdIds = existing.holdIds.includes(cmd.holdId) ? existing.holdIds : [...existing.holdIds, cmd.holdId];
  return { action: "place", record: { ...existing, state: "running", holdIds } };
}

/**
 * `existing` ended with `result` at `now` (200 succeeded, anything else failed); unchanged when it had
 * ended already. The record holds `result` itself, not a copy: the caller hands over a result freshly
 * decoded from its message or request, and the stores write it out as JSON (a deep copy per
 * settlement was 2.4 % of the ledger's CPU under executes).
 */
export function completedExecution(existing: ExecutionRecord, result: StoredResult, now: Date): ExecutionRecord | null {
  if (isFinal(existing)) return null;
  return {
    ...existing,
    state: result.httpStatus === 200 ? "succeeded" : "failed",
    result,
    completedAt: new Date(now),
  };
}

/** The code and answer of an execution that was abandoned mid-call (see ExecutionState). */
export const OUTCOME_UNKNOWN_CODE = "EXECUTION_OUTCOME_UNKNOWN";

/**
 * Whether `existing` was abandoned: running, its lease ran out `graceMs` ago or more, and none of its
 * holds is still held (so no capture can come any more). `holdStates` are the states of its holds.
 */
export function isAbandoned(existing: ExecutionRecord, holdStates: readonly Hold["state"][], now: Date, graceMs: number): boolean {
  return (
    existing.state === "running" && existing.leaseExpiresAt.getTime() + graceMs <= now.getTime() && holdStates.every((s) => s !== "held")
  );
}

/** `existing` marked abandoned: outcome_unknown, with the answer a retry of its key replays. */
export function abandonedExecution(existing: ExecutionRecord, now: Date): ExecutionRecord {
  return {
    ...existing,
    state: "outcome_unknown",
    completedAt: new Date(now),
    result: {
      // 502: the upstream call's outcome is unknown to us; never a success, never retried under this key.
      httpStatus: 502,
      body: {
        success: false,
        error: `Execution ${existing.executionId} was interrupted while its provider call was in flight; whether the provider acted is unknown. Nothing was charged.`,
        code: OUTCOME_UNKNOWN_CODE,
        hint: "Check the effect (for example the sent message) before trying again; to try again, send a new Idempotency-Key.",
        // gRPC UNKNOWN, so the executor replays it as the same error.
        grpcStatus: 2,
        details: { executionId: existing.executionId },
      },
    },
  };
}

/** The payments a settlement carries, as booked against its hold: id `<holdId>/<position>`, so a redelivery books nothing new. */
export function bookedPayments(hold: Hold, drafts: readonly PaymentDraft[], now: Date): OutgoingPayment[] {
  return drafts.map((draft, position) => ({
    ...draft,
    paymentId: `${hold.holdId}/${position}`,
    holdId: hold.holdId,
    userId: hold.userId,
    ...(hold.executionId ? { executionId: hold.executionId } : {}),
    routeKey: hold.routeKey,
    bookedAt: new Date(now),
  }));
}

/** Why a payment of a hold that charged nothing is a loss. */
function lossReason(hold: Hold, kind: SettlementKind, payment: OutgoingPayment): PlatformLossReason {
  if (kind === "capture" && hold.state === "expired") return "capture_after_hold_expired";
  if (payment.settlement === "rejected") return "seller_rejected_signed_payment";
  if (payment.settlement === "unknown") return "payment_outcome_unknown";
  return hold.state === "captured" ? "paid_not_charged" : "paid_attempt_released";
}

/**
 * The platform losses of `payments` once `hold` has ended (after this settlement, or before it): every
 * payment of a hold that charged nothing (released, expired, or captured at 0) was paid and not charged.
 */
export function platformLosses(
  hold: Hold,
  kind: SettlementKind,
  payments: readonly OutgoingPayment[],
  errorCode: string | undefined,
  now: Date,
): PlatformLoss[] {
  if (hold.state === "held" || (hold.state === "captured" && hold.capturedCredits > 0)) return [];
  return payments.map((p) => ({
    paymentId: p.paymentId,
    reason: lossReason(hold, kind, p),
    amountMicroUsd: p.amountMicroUsd,
    holdId: p.holdId,
    ...(p.executionId ? { executionId: p.executionId } : {}),
    userId: p.userId,
    routeKey: p.routeKey,
    rail: p.rail,
    network: p.network,
    amountAtomic: p.amountAtomic,
    ...(p.reference ? { reference: p.reference } : {}),
    settlement: p.settlement,
    ...(errorCode ? { errorCode } : {}),
    createdAt: new Date(now),
  }));
}

/** Whether `hold` has ended without a charge (released, expired, or captured at 0). */
export function chargedNothing(hold: Pick<Hold, "state" | "capturedCredits">): boolean {
  return hold.state !== "held" && !(hold.state === "captured" && hold.capturedCredits > 0);
}

/** Uncharged vendor work as booked against the ended `hold`, once per hold, on the UTC day of `now`. */
export function unchargedWorkOf(hold: Hold, draft: UnchargedWorkDraft, now: Date): UnchargedWork {
  return {
    holdId: hold.holdId,
    userId: hold.userId,
    ...(hold.executionId ? { executionId: hold.executionId } : {}),
    routeKey: hold.routeKey,
    reason: draft.reason,
    estimatedCostMicroUsd: Math.max(0, Math.round(draft.estimatedCostMicroUsd)),
    day: utcDay(now),
    createdAt: new Date(now),
  };
}

/**
 * Uncharged vendor work as the reconciliation lists it among the platform losses: at risk (the vendor
 * may have acted), rail "direct", its estimate as the amount, id `<hold>/vendor`.
 */
export function unchargedLoss(work: UnchargedWork): PlatformLoss {
  return {
    paymentId: `${work.holdId}/vendor`,
    reason: "vendor_work_not_charged",
    amountMicroUsd: work.estimatedCostMicroUsd,
    holdId: work.holdId,
    ...(work.executionId ? { executionId: work.executionId } : {}),
    userId: work.userId,
    routeKey: work.routeKey,
    rail: "direct",
    network: "direct",
    amountAtomic: "",
    settlement: "unknown",
    errorCode: work.reason,
    createdAt: new Date(work.createdAt),
  };
}

/** The resources a settlement carries, owned by its hold's user from now on. */
export function ownedResources(hold: Hold, drafts: readonly ResourceDraft[], now: Date): OwnedResource[] {
  return drafts.map((d) => ({
    kind: d.kind,
    resourceId: d.resourceId,
    provider: d.provider,
    userId: hold.userId,
    holdId: hold.holdId,
    ...(hold.executionId ? { executionId: hold.executionId } : {}),
    createdAt: new Date(now),
  }));
}

/** What booking a settlement's facts wrote: payments and losses new to the store, resources another user owns already. */
export interface BookedFacts {
  payments: OutgoingPayment[];
  losses: PlatformLoss[];
  /** Resources the settlement named that were already owned by another user (kept with their first owner). */
  resourceConflicts: OwnedResource[];
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Micro-USD of credits (1000 credits = 1 USD, so 1 credit = 1000 micro-USD). */
export const MICRO_USD_PER_CREDIT = 1000;

export interface ReconciliationRowData {
  date: string;
  routeKey: string;
  paidOutMicroUsd: number;
  payments: number;
  atRiskMicroUsd: number;
  chargedCredits: number;
  chargedMicroUsd: number;
  captures: number;
  lostMicroUsd: number;
  marginMicroUsd: number;
}

export type ReconciliationTotalsData = Omit<ReconciliationRowData, "date" | "routeKey">;

/**
 * Rows per (UTC day, route) from the store's sums: paid out (settled and unconfirmed payments) and at
 * risk (rejected and unknown ones, and the estimates of uncharged vendor work on our own keys) against
 * what captures charged, with the losses of paid payments.
 * Ordered by day, then route key.
 */
export function reconciliationRows(
  charges: readonly ChargeTotal[],
  payments: readonly PaymentTotal[],
  losses: readonly PlatformLoss[],
): { rows: ReconciliationRowData[]; totals: ReconciliationTotalsData } {
  const rows = new Map<string, ReconciliationRowData>();
  const row = (date: string, routeKey: string): ReconciliationRowData => {
    const key = `${date}\u0000${routeKey}`;
    let r = rows.get(key);
    if (!r) {
      r = {
        date,
        routeKey,
        paidOutMicroUsd: 0,
        payments: 0,
        atRiskMicroUsd: 0,
        chargedCredits: 0,
        chargedMicroUsd: 0,
        captures: 0,
        lostMicroUsd: 0,
        marginMicroUsd: 0,
      };
      rows.set(key, r);
    }
    return r;
  };
  for (const c of charges) {
    const r = row(c.day, c.routeKey);
    r.chargedCredits += c.chargedCredits;
    r.captures += c.captures;
  }
  for (const p of payments) {
    const r = row(p.day, p.routeKey);
    if (PAID_SETTLEMENTS.includes(p.settlement)) {
      r.paidOutMicroUsd += p.amountMicroUsd;
      r.payments += p.payments;
    } else {
      r.atRiskMicroUsd += p.amountMicroUsd;
    }
  }
  for (const l of losses) {
    if (PAID_SETTLEMENTS.includes(l.settlement)) row(utcDay(l.createdAt), l.routeKey).lostMicroUsd += l.amountMicroUsd;
    // Vendor work on our own key is no payment: what it may cost is at risk on its day.
    else if (l.rail === "direct") row(utcDay(l.createdAt), l.routeKey).atRiskMicroUsd += l.amountMicroUsd;
  }
  const totals: ReconciliationTotalsData = {
    paidOutMicroUsd: 0,
    payments: 0,
    atRiskMicroUsd: 0,
    chargedCredits: 0,
    chargedMicroUsd: 0,
    captures: 0,
    lostMicroUsd: 0,
    marginMicroUsd: 0,
  };
  const sorted = [...rows.values()].sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.routeKey < b.routeKey ? -1 : a.routeKey > b.routeKey ? 1 : 0,
  );
  for (const r of sorted) {
    r.chargedMicroUsd = r.chargedCredits * MICRO_USD_PER_CREDIT;
    r.marginMicroUsd = r.chargedMicroUsd - r.paidOutMicroUsd;
    for (const k of Object.keys(totals) as (keyof ReconciliationTotalsData)[]) totals[k] += r[k];
  }
  return { rows: sorted, totals };
}
