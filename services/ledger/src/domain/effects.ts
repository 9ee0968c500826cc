// What one store operation writes, as data: a decision (decide-*.ts) returns these effects and the
// store applies them, all in its one atomic step (SQLite: the operation's savepoint; MongoDB: its
// session transaction). The stores apply them in this field order (wallets before the holds that
// reference them, holds before their usage and payments), and keep their own last guards beneath
// (a conditional `state = 'held'`, a balance that may not go below zero, unique keys).
import type { QuoteRecord } from "./quote";
import { settledHold, settlementEffect } from "./rules";
import { endedDelta, heldDelta, type SpendBucketDelta } from "./spend-policy";
import type { TopUpRecord } from "./top-up";
import type {
  ExecutionRecord,
  Hold,
  JournalEntry,
  OutgoingPayment,
  OwnedResource,
  PlatformLoss,
  SettlementKind,
  UnchargedWork,
  UsageItem,
  Wallet,
} from "./types";

/** An execution to write: inserted when `previous` is null, else written in place of `previous` (compare-and-set where the store has one). */
export interface ExecutionWrite {
  record: ExecutionRecord;
  previous: ExecutionRecord | null;
}

export interface LedgerEffects {
  /** Holds that leave `held` now (written only while still `held`). */
  endedHolds: Hold[];
  /** Journal entries, in order; each moves its user's wallet (created by a move that only adds). */
  moves: JournalEntry[];
  newHolds: Hold[];
  /** Spend bucket moves: a hold's day bucket by `delta` (a new hold creates it). */
  spend: { hold: Hold; delta: SpendBucketDelta }[];
  newQuotes: QuoteRecord[];
  /** Quotes drawn by a hold (written only while unused). */
  usedQuotes: { quoteId: string; holdId: string }[];
  /** A top-up that ends (written only while pending). */
  endedTopUps: TopUpRecord[];
  executions: ExecutionWrite[];
  /** Usage items, each written once (a charge once per hold, a movement once per reference). */
  usage: UsageItem[];
  payments: OutgoingPayment[];
  losses: PlatformLoss[];
  resources: OwnedResource[];
  /** Uncharged vendor work on our own keys, once per hold. */
  unchargedWork: UnchargedWork[];
}

/** Effects that write nothing (a refusal, a replay). */
export function noEffects(): LedgerEffects {
  return {
    endedHolds: [],
    moves: [],
    newHolds: [],
    spend: [],
    newQuotes: [],
    usedQuotes: [],
    endedTopUps: [],
    executions: [],
    usage: [],
    payments: [],
    losses: [],
    resources: [],
    unchargedWork: [],
  };
}

/** A decision: the answer the store returns, and what it writes to give it (nothing for a refusal). */
export interface Decision<R> {
  result: R;
  effects: LedgerEffects;
}

/** The answer alone: nothing is written. */
export const answer = <R>(result: R): Decision<R> => ({ result, effects: noEffects() });

/** One journal entry of `userId`, with the id the store minted for it. */
export function journalEntry(entryId: string, fields: Omit<JournalEntry, "entryId" | "createdAt">, now: Date): JournalEntry {
  return { entryId, ...fields, createdAt: new Date(now) };
}

/**
 * `wallet` after `moves` (those of its user). Throws when either sum goes below zero: decisions check
 * first, so this is an invariant, never a refusal.
 */
export function walletAfter(wallet: Wallet, moves: readonly JournalEntry[]): Wallet {
  let { balanceCredits, heldCredits } = wallet;
  for (const m of moves) {
    if (m.userId !== wallet.userId) continue;
    balanceCredits += m.amountCredits;
    heldCredits += m.heldDeltaCredits;
    if (balanceCredits < 0 || heldCredits < 0)
      throw new Error(
        `ledger invariant: ${m.kind} ${m.referenceId} would leave ${m.userId} at balance ${balanceCredits}, held ${heldCredits}`,
      );
  }
  return { userId: wallet.userId, balanceCredits, heldCredits };
}

/**
 * Ends the held `hold` now with `kind` (a capture of `requestedCredits`, clamped to the hold; a release
 * or an expiry returns all of it): adds its end, the journal entry that returns what it does not
 * charge, and its spend bucket's move to `effects`. Returns the ended hold. Every ending of a hold
 * (a settlement, a quote's reservation drawn by a hold) goes through here.
 */
export function endHold(
  effects: LedgerEffects,
  hold: Hold,
  kind: SettlementKind,
  requestedCredits: number,
  now: Date,
  newEntryId: () => string,
): Hold {
  const effect = settlementEffect(hold, kind, requestedCredits);
  const ended = settledHold(hold, effect, now);
  effects.endedHolds.push(ended);
  effects.moves.push(
    journalEntry(
      newEntryId(),
      {
        userId: hold.userId,
        kind: effect.kind,
        amountCredits: effect.amountCredits,
        heldDeltaCredits: effect.heldDeltaCredits,
        referenceId: hold.holdId,
      },
      now,
    ),
  );
  effects.spend.push({ hold, delta: endedDelta(hold, ended) });
  return ended;
}

/**
 * Places the new held `hold`: adds it, the journal entry that moves its credits from balance to held,
 * and its spend bucket's move (none without spend attribution) to `effects`. Every new hold (an
 * attempt's, a quote's reservation) goes through here.
 */
export function placeHold(effects: LedgerEffects, hold: Hold, newEntryId: () => string): void {
  effects.moves.push(
    journalEntry(
      newEntryId(),
      {
        userId: hold.userId,
        kind: "hold",
        amountCredits: -hold.amountCredits,
        heldDeltaCredits: hold.amountCredits,
        referenceId: hold.holdId,
      },
      hold.createdAt,
    ),
  );
  effects.newHolds.push(hold);
  effects.spend.push({ hold, delta: heldDelta(hold.amountCredits) });
}
