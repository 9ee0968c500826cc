// A settlement (capture, release, expiry) of one hold, decided once for every store. Order: an
// unknown hold or another user's writes nothing; a hold that has ended already moves nothing but
// still gets what this settlement carries and it lacks (its usage item, payments, losses, resources);
// a held hold ends now: its charge is clamped to 0..held, the rest returns, its spend moves, its usage
// item, payments (with the loss of each when nothing was charged), uncharged vendor work on our own
// key (when nothing was charged) and resources are booked, and the outcome ends its execution, all in
// the same step.
import type { SettleCommand, SettleResult } from "./ports";
import {
  bookedPayments,
  chargedNothing,
  ownedResources,
  platformLosses,
  unchargedLoss,
  unchargedWorkOf,
  usageItemFor,
  type BookedFacts,
} from "./rules";
import type { ExecutionRecord, Hold, OutgoingPayment, OwnedResource, Wallet } from "./types";
import { decideCompletion } from "./decide-completion";
import { answer, endHold, noEffects, walletAfter, type Decision, type LedgerEffects } from "./effects";

/** What a settlement is decided on, read in its atomic step. */
export interface SettleFacts {
  hold: Hold | null;
  /** The hold's user's wallet. */
  wallet: Wallet;
  /** Whether the hold has its usage item already. */
  usageRecorded: boolean;
  /** Payments of this hold already booked (any of the ids the settlement carries). */
  payments: readonly OutgoingPayment[];
  /** Payment ids that have their loss written already. */
  lossIds: readonly string[];
  /** The current owners of the resources the settlement names (those that have one). */
  resourceOwners: readonly OwnedResource[];
  /** The hold's execution, unless absent or past its retention. */
  execution: ExecutionRecord | null;
  /** Whether uncharged vendor work is booked for the hold already. */
  unchargedRecorded: boolean;
}

export function decideSettle(cmd: SettleCommand, facts: SettleFacts, newEntryId: () => string): Decision<SettleResult> {
  const { hold } = facts;
  if (!hold) return answer({ status: "unknown_hold" });
  if (hold.userId !== cmd.userId) return answer({ status: "user_mismatch", hold });
  const effects = noEffects();
  if (hold.state !== "held") {
    const usageRecorded = recordUsage(effects, hold, cmd, facts);
    return { result: { status: "already_settled", hold, usageRecorded, booked: book(effects, hold, cmd, facts) }, effects };
  }
  const settled = endHold(effects, hold, cmd.kind, cmd.capturedCredits, cmd.now, newEntryId);
  const usageRecorded = recordUsage(effects, settled, cmd, facts);
  const booked = book(effects, settled, cmd, facts);
  // The outcome ends the execution in the same step as the charge (unless it had ended: the first completion wins).
  if (cmd.outcome && settled.executionId) {
    const completion = decideCompletion(facts.execution, { userId: settled.userId, result: cmd.outcome, now: cmd.now });
    if (completion.outcome === "completed") effects.executions.push({ record: completion.record, previous: facts.execution });
  }
  return {
    result: { status: "applied", hold: settled, wallet: walletAfter(facts.wallet, effects.moves), usageRecorded, booked },
    effects,
  };
}

/** The usage item of the ended `hold`, once; true when this settlement records it. */
function recordUsage(effects: LedgerEffects, hold: Hold, cmd: SettleCommand, facts: SettleFacts): boolean {
  if (!cmd.usage || facts.usageRecorded) return false;
  effects.usage.push(usageItemFor(hold, cmd.usage));
  return true;
}

/**
 * Books what a settlement of the ended `hold` carries, each once: its payments, the loss of each when
 * the hold charged nothing, its resources (the first owner stays). Returns what is new.
 */
function book(effects: LedgerEffects, hold: Hold, cmd: SettleCommand, facts: SettleFacts): BookedFacts {
  const booked: BookedFacts = { payments: [], losses: [], resourceConflicts: [] };
  const carried = bookedPayments(hold, cmd.payments ?? [], cmd.now).map((p) => {
    const existing = facts.payments.find((e) => e.paymentId === p.paymentId);
    if (existing) return existing;
    booked.payments.push(p);
    return p;
  });
  for (const loss of platformLosses(hold, cmd.kind, carried, cmd.usage?.errorCode, cmd.now))
    if (!facts.lossIds.includes(loss.paymentId)) booked.losses.push(loss);
  // Vendor work on our own key that the caller is not charged for: at risk, once per hold.
  if (cmd.unchargedWork && chargedNothing(hold) && !facts.unchargedRecorded) {
    const work = unchargedWorkOf(hold, cmd.unchargedWork, cmd.now);
    effects.unchargedWork.push(work);
    booked.losses.push(unchargedLoss(work));
  }
  for (const resource of ownedResources(hold, cmd.resources ?? [], cmd.now)) {
    const owner = facts.resourceOwners.find((o) => o.kind === resource.kind && o.resourceId === resource.resourceId);
    if (!owner) {
      if (!effects.resources.some((r) => r.kind === resource.kind && r.resourceId === resource.resourceId))
        effects.resources.push(resource);
    } else if (owner.userId !== resource.userId) booked.resourceConflicts.push(owner);
  }
  effects.payments.push(...booked.payments);
  effects.losses.push(...booked.losses.filter((l) => l.rail !== "direct"));
  return booked;
}
