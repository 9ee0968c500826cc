// QuoteTopUp: the x402 PaymentRequirements of a top-up, as the gateway's 402 offers them.
import type { UnaryHandler } from "@agentic/platform";
import type { QuoteTopUpRequest, QuoteTopUpResponse } from "@agentic/proto/ledger/v1";
import type { TopUps } from "../domain/top-ups";

export function quoteTopUp(topUps: TopUps): UnaryHandler<QuoteTopUpRequest, QuoteTopUpResponse> {
  return async (req) => ({ requirementsJson: JSON.stringify(topUps.quote(req.amountCredits)) });
}
