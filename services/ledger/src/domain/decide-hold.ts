// HoldCredits, decided once for every store. The order of checks is the rule: a replay (or a
// conflicting reuse of the hold id) first; then the quote it draws (the user's, open, this amount);
// then the execution's fence (an attempt that may not start is refused whatever the balance); then
// the spend policies; then the user's daily allowance of uncharged vendor work; then the balance (a drawn quote's reservation counts towards it); and only
// then the effects: the reservation ends, the new hold takes the credits, spend and execution move.
import type { HoldCommand, HoldResult } from "./ports";
import { decideQuoteDraw, type QuoteRecord } from "./quote";
import { decideExecutionHold, emptyWallet, isReplay, newHold } from "./rules";
import { bucketInScope, decideSpend, periodStartDay, spendBucketOf, spendPeriod, type SpendCheck } from "./spend-policy";
import type { ExecutionRecord, Hold, Wallet } from "./types";
import { answer, endHold, noEffects, placeHold, walletAfter, type Decision } from "./effects";

/** What a hold is decided on, read in the hold's atomic step. */
export interface HoldFacts {
  /** The hold with this id, if one exists. */
  existing: Hold | null;
  /** The quote `quoteId` names, and its reservation hold (null when none, or no quote was named). */
  quote: QuoteRecord | null;
  reservation: Hold | null;
  /** The execution the hold names, unless absent or past its retention. */
  execution: ExecutionRecord | null;
  /** The spend policies covering the hold's key and agent, each with what it has spent in its current period. */
  spend: SpendCheck[];
  /** The user's wallet, null when the user has none. */
  wallet: Wallet | null;
  /** The user's uncharged outcomes of vendor work on our keys booked on the UTC day of the hold (`now`). */
  unchargedToday: number;
}

/**
 * The facts of a hold whose id exists: a replay or a conflict is decided on the hold and its owner's
 * wallet alone, so the stores read nothing else (a retried hold costs two reads, not a dozen).
 */
export function existingHoldFacts(existing: Hold, wallet: Wallet | null): HoldFacts {
  return { existing, quote: null, reservation: null, execution: null, spend: [], wallet, unchargedToday: 0 };
}

export function decideHold(cmd: HoldCommand, facts: HoldFacts, newEntryId: () => string): Decision<HoldResult> {
  const { existing, quote, reservation } = facts;
  if (existing) {
    if (!isReplay(existing, cmd)) return answer({ status: "conflict", hold: existing });
    return answer({ status: "replayed", hold: existing, wallet: facts.wallet ?? emptyWallet(existing.userId) });
  }
  if (cmd.quoteId !== undefined) {
    const refused = decideQuoteDraw(quote, reservation, cmd);
    if (refused) return answer({ status: "quote_refused", reason: refused });
  }
  // The quote's reservation this hold draws (checked open above); its credits move to the new hold.
  const drawn = cmd.quoteId !== undefined && quote && reservation ? reservation : null;
  const effects = noEffects();
  if (cmd.execution) {
    const fence = decideExecutionHold(facts.execution, { userId: cmd.userId, holdId: cmd.holdId, execution: cmd.execution, now: cmd.now });
    if (fence.action === "fenced") return answer({ status: "fenced", reason: fence.reason });
    effects.executions.push({ record: fence.record, previous: facts.execution });
  }
  if (cmd.spend) {
    // A drawn quote's reservation is counted already; its credits move to this hold, so they count once.
    const checks = drawn ? facts.spend.map((c) => withoutReservation(c, drawn, cmd.now)) : facts.spend;
    const refusal = decideSpend(checks, cmd.spend, cmd.amountCredits, cmd.now);
    if (refusal) return answer({ status: "spend_refused", refusal });
  }
  // Past the day's allowance of uncharged vendor work, a loop of provoked failures stops here.
  if (cmd.unchargedAllowance !== undefined && facts.unchargedToday >= cmd.unchargedAllowance)
    return answer({ status: "uncharged_limit", count: facts.unchargedToday, limit: cmd.unchargedAllowance });
  const wallet = facts.wallet;
  if (!wallet || wallet.balanceCredits + (drawn?.amountCredits ?? 0) < cmd.amountCredits)
    return answer({ status: "insufficient", wallet: wallet ?? emptyWallet(cmd.userId) });

  if (drawn && quote) {
    // The reservation ends and its credits go straight into this hold, in the same step: nobody else can take them.
    endHold(effects, drawn, "release", 0, cmd.now, newEntryId);
    effects.usedQuotes.push({ quoteId: quote.quoteId, holdId: cmd.holdId });
  }
  const hold = newHold(cmd);
  placeHold(effects, hold, newEntryId);
  return { result: { status: "created", hold, wallet: walletAfter(wallet, effects.moves) }, effects };
}

/**
 * `check`'s usage without the held `reservation` (a quote's, drawn by this hold) when the policy counts
 * it: its bucket is the policy's key (and agent) and its day falls in the policy's current period.
 */
function withoutReservation(check: SpendCheck, reservation: Hold, now: Date): SpendCheck {
  const bucket = spendBucketOf(reservation);
  const { policy, usage } = check;
  if (!bucket || reservation.state !== "held") return check;
  if (!bucketInScope(check.scope, bucket)) return check;
  if (bucket.day < periodStartDay(spendPeriod(policy, now).start)) return check;
  const amount = reservation.amountCredits;
  const byCapability = { ...usage.byCapability };
  const own = byCapability[bucket.capabilityKey];
  if (own) byCapability[bucket.capabilityKey] = { spentCredits: own.spentCredits - amount, count: own.count - 1 };
  return { ...check, usage: { spentCredits: usage.spentCredits - amount, heldCredits: usage.heldCredits - amount, byCapability } };
}
