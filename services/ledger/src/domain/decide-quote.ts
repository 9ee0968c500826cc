// CreateQuote, decided once for every store. Order: once per quote id (a replay with the same user and
// amount, else a conflict); the key's open quotes are capped; the spend policies its execute would be
// checked against must have room for it (an open reservation counts against them, as a hold does); the
// balance must cover it; then its reservation hold (with the quote's spend attribution) and the quote
// record are written together.
import {
  MAX_OPEN_QUOTES_PER_KEY,
  quoteSpender,
  reservationHoldId,
  type CreateQuoteCommand,
  type CreateQuoteResult,
  type QuoteRecord,
} from "./quote";
import { decideSpend, type SpendCheck } from "./spend-policy";
import { emptyWallet, isReplay, newHold } from "./rules";
import type { Wallet } from "./types";
import { answer, noEffects, placeHold, walletAfter, type Decision } from "./effects";

export interface QuoteFacts {
  existing: QuoteRecord | null;
  wallet: Wallet | null;
  /** The key's open quotes (unused, unexpired) now. */
  openQuotes: number;
  /** The spend policies covering the quote's key and agent, each with what it has spent in its current period. */
  spend: SpendCheck[];
}

export function decideCreateQuote(cmd: CreateQuoteCommand, facts: QuoteFacts, newEntryId: () => string): Decision<CreateQuoteResult> {
  const { existing, wallet } = facts;
  if (existing) {
    if (!isReplay(existing, cmd)) return answer({ status: "conflict", quote: existing });
    return answer({ status: "replayed", quote: existing, wallet: wallet ?? emptyWallet(existing.userId) });
  }
  if (facts.openQuotes >= MAX_OPEN_QUOTES_PER_KEY)
    return answer({ status: "too_many_open_quotes", open: facts.openQuotes, limit: MAX_OPEN_QUOTES_PER_KEY });
  const who = quoteSpender(cmd);
  const refusal = decideSpend(facts.spend, who, cmd.amountCredits, cmd.now);
  if (refusal) return answer({ status: "spend_refused", refusal });
  if (!wallet || wallet.balanceCredits < cmd.amountCredits)
    return answer({ status: "insufficient", wallet: wallet ?? emptyWallet(cmd.userId) });
  const { now: _now, ...fields } = cmd;
  const quote: QuoteRecord = { ...fields, reservationHoldId: reservationHoldId(cmd.quoteId) };
  const effects = noEffects();
  // With the quote's spend attribution: the open reservation counts against the policies (see quote.ts).
  placeHold(effects, newHold({ ...cmd, holdId: quote.reservationHoldId, spend: who }), newEntryId);
  effects.newQuotes.push(quote);
  return { result: { status: "created", quote, wallet: walletAfter(wallet, effects.moves) }, effects };
}
