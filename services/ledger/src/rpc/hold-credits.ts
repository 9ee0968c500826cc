// HoldCredits: reserves credits for one execution attempt, once per hold_id. FAILED_PRECONDITION
// (CREDITS_REQUIRED, details requiredCredits and balanceCredits) when the balance is short;
// ALREADY_EXISTS (HOLD_ID_CONFLICT) when the id was used for another user or amount;
// FAILED_PRECONDITION (EXECUTION_FENCED) when the named execution may not start an attempt.
import type { UnaryHandler } from "@agentic/platform";
import type { HoldCreditsRequest, HoldCreditsResponse } from "@agentic/proto/ledger/v1";
import type { HoldRequest, Ledger } from "../domain/ledger";

export function holdCredits(ledger: Ledger): UnaryHandler<HoldCreditsRequest, HoldCreditsResponse> {
  return async (req) => {
    const { hold, wallet, replayed } = await ledger.holdCredits(holdRequest(req));
    return { hold, wallet, replayed };
  };
}

/** A hold request off the wire (an absent one is empty, and refused by validation). */
export function holdRequest(req: HoldCreditsRequest | undefined): HoldRequest {
  if (!req) return { holdId: "", userId: "", amountCredits: 0, ttlMs: 0, routeKey: "" };
  const { execution, ...holdRequest } = req;
  return {
    ...holdRequest,
    ...(execution
      ? {
          execution: {
            executionId: execution.executionId,
            capabilityKey: execution.capabilityKey,
            ...(execution.idempotencyKey !== undefined ? { idempotencyKey: execution.idempotencyKey } : {}),
          },
        }
      : {}),
  };
}
