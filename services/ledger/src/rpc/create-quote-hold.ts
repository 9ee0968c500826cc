// CreateQuoteHold: reserves a quote's credits once per quote_id (not counted by spend policies), and
// says what a spend policy would refuse when the quoted execute holds that price now.
// FAILED_PRECONDITION (CREDITS_REQUIRED) when the balance is short; ALREADY_EXISTS (QUOTE_ID_CONFLICT)
// when the id was used for another user or amount.
import type { UnaryHandler } from "@agentic/platform";
import type { CreateQuoteHoldRequest, CreateQuoteHoldResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function createQuoteHold(ledger: Ledger): UnaryHandler<CreateQuoteHoldRequest, CreateQuoteHoldResponse> {
  return async (req) => {
    const { quote, wallet, replayed, spendRefusal } = await ledger.createQuoteHold(req);
    return {
      quoteId: quote.quoteId,
      expiresAt: quote.expiresAt,
      balanceAfterCredits: wallet.balanceCredits,
      wallet,
      replayed,
      blockingRequirements: spendRefusal ? [spendRefusal.code] : [],
      nextActions: spendRefusal ? [spendRefusal.hint] : [],
    };
  };
}
