// CreateQuote, decided once for every store: once per quote id (a replay with the same user and
// amount, else a conflict); the balance must cover it; then its reservation hold and the quote record
// are written together.
import { reservationHoldId, type CreateQuoteCommand, type CreateQuoteResult, type QuoteRecord } from "./quote";
import { emptyWallet, isReplay, newHold } from "./rules";
import type { Wallet } from "./types";
import { answer, noEffects, placeHold, walletAfter, type Decision } from "./effects";

export interface QuoteFacts {
  existing: QuoteRecord | null;
  wallet: Wallet | null;
}

export function decideCreateQuote(cmd: CreateQuoteCommand, facts: QuoteFacts, newEntryId: () => string): Decision<CreateQuoteResult> {
  const { existing, wallet } = facts;
  if (existing) {
    if (!isReplay(existing, cmd)) return answer({ status: "conflict", quote: existing });
    return answer({ status: "replayed", quote: existing, wallet: wallet ?? emptyWallet(existing.userId) });
  }
  if (!wallet || wallet.balanceCredits < cmd.amountCredits)
    return answer({ status: "insufficient", wallet: wallet ?? emptyWallet(cmd.userId) });
  const { now: _now, ...fields } = cmd;
  const quote: QuoteRecord = { ...fields, reservationHoldId: reservationHoldId(cmd.quoteId) };
  const effects = noEffects();
  // No spend attribution: a reservation counts against no policy (see quote.ts).
  placeHold(effects, newHold({ ...cmd, holdId: quote.reservationHoldId }), newEntryId);
  effects.newQuotes.push(quote);
  return { result: { status: "created", quote, wallet: walletAfter(wallet, effects.moves) }, effects };
}
