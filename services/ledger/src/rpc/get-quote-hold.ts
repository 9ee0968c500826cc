// GetQuoteHold: one quote of a user and its status; NOT_FOUND (QUOTE_NOT_FOUND) for another user's.
import type { UnaryHandler } from "@agentic/platform";
import type { GetQuoteHoldRequest, GetQuoteHoldResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function getQuoteHold(ledger: Ledger): UnaryHandler<GetQuoteHoldRequest, GetQuoteHoldResponse> {
  return async (req) => {
    const { quote, status } = await ledger.getQuoteHold(req.userId, req.quoteId);
    return {
      quote: {
        quoteId: quote.quoteId,
        userId: quote.userId,
        keyId: quote.keyId,
        agentName: quote.agentName,
        capabilityKey: quote.capabilityKey,
        routeKey: quote.routeKey,
        amountCredits: quote.amountCredits,
        requestHash: quote.requestHash,
        status,
        createdAt: quote.createdAt,
        expiresAt: quote.expiresAt,
        holdId: quote.usedByHoldId,
      },
    };
  };
}
