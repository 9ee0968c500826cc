// CreateQuoteHold: reserves a quote's credits once per quote_id (not counted by spend policies), and
// says what a spend policy would refuse when the quoted execute holds that price now.
// FAILED_PRECONDITION (CREDITS_REQUIRED) when the balance is short; ALREADY_EXISTS (QUOTE_ID_CONFLICT)
// when the id was used for another user or amount.
import type { UnaryHandler } from "@agentic/platform";
import type { CreateQuoteHoldRequest, CreateQuoteHoldResponse } from "@agentic/proto/ledger/v1";
import { spendRefused } from "../domain/errors";
import type { Ledger } from "../domain/ledger";

export function createQuoteHold(ledger: Ledger): UnaryHandler<CreateQuoteHoldRequest, CreateQuoteHoldResponse> {
  return async (req) => {
    const { quote, wallet, replayed } = await ledger.createQuoteHold(req);
    const refusal = await ledger.wouldRefuse(
      req.userId,
      {
        keyId: req.keyId,
        ...(req.agentName ? { agentName: req.agentName } : {}),
        capabilityKey: req.capabilityKey,
      },
      req.amountCredits,
    );
    return {
      quoteId: quote.quoteId,
      expiresAt: quote.expiresAt,
      balanceAfterCredits: wallet.balanceCredits,
      wallet,
      replayed,
      blockingRequirements: refusal ? [refusal.code] : [],
      nextActions: refusal ? [spendRefused(refusal).hint] : [],
    };
  };
}
