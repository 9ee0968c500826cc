// ClaimIdempotencyKeyAndHoldCredits: the claim (as ClaimIdempotencyKey answers it) and, when this call
// claimed the key, the first attempt's hold (as HoldCredits answers it, errors alike) in one round trip.
import type { UnaryHandler } from "@agentic/platform";
import type { ClaimIdempotencyKeyAndHoldCreditsRequest, ClaimIdempotencyKeyAndHoldCreditsResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { claimRequest, claimResponse } from "./claim-idempotency-key";
import { holdRequest } from "./hold-credits";

export function claimIdempotencyKeyAndHoldCredits(
  ledger: Ledger,
): UnaryHandler<ClaimIdempotencyKeyAndHoldCreditsRequest, ClaimIdempotencyKeyAndHoldCreditsResponse> {
  return async (req) => {
    const { claim: outcome, hold } = await ledger.claimIdempotencyKeyAndHold({
      claim: claimRequest(req.claim),
      hold: holdRequest(req.hold),
    });
    return { claim: claimResponse(outcome), ...(hold ? { hold } : {}) };
  };
}
