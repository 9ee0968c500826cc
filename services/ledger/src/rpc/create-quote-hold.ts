// CreateQuoteHold: reserves a quote's credits once per quote_id, counted by the key's (and agent's) spend
// policies while the quote is open. FAILED_PRECONDITION (CREDITS_REQUIRED, SPEND_LIMIT_EXCEEDED,
// PRICE_ABOVE_MAX) when the balance or a policy has no room for it; RESOURCE_EXHAUSTED
// (TOO_MANY_OPEN_QUOTES) past the key's open quotes; ALREADY_EXISTS (QUOTE_ID_CONFLICT) when the id was
// used for another user or amount. A quote that is answered has no blocking requirement left.
import type { UnaryHandler } from "@agentic/platform";
import type { CreateQuoteHoldRequest, CreateQuoteHoldResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function createQuoteHold(ledger: Ledger): UnaryHandler<CreateQuoteHoldRequest, CreateQuoteHoldResponse> {
  return async (req) => {
    const { quote, wallet, replayed } = await ledger.createQuoteHold(req);
    return {
      quoteId: quote.quoteId,
      expiresAt: quote.expiresAt,
      balanceAfterCredits: wallet.balanceCredits,
      wallet,
      replayed,
      blockingRequirements: [],
      nextActions: [],
    };
  };
}
