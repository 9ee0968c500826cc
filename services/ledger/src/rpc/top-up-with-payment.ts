// TopUpWithPayment: verifies and settles an x402 payment with the facilitator and credits it once.
import type { UnaryHandler } from "@agentic/platform";
import type { TopUpWithPaymentRequest, TopUpWithPaymentResponse } from "@agentic/proto/ledger/v1";
import type { TopUps } from "../domain/top-ups";

export function topUpWithPayment(topUps: TopUps): UnaryHandler<TopUpWithPaymentRequest, TopUpWithPaymentResponse> {
  return async (req) => {
    const r = await topUps.topUpWithPayment(req);
    return {
      topUpId: r.topUpId,
      amountCredits: r.amountCredits,
      creditedCredits: r.creditedCredits,
      replayed: r.replayed,
      wallet: r.wallet,
      settlementJson: r.settlement,
    };
  };
}
