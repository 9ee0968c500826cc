// HoldCredits: reserves credits for one execution attempt, once per hold_id. FAILED_PRECONDITION
// (CREDITS_REQUIRED, details requiredCredits and balanceCredits) when the balance is short;
// ALREADY_EXISTS (HOLD_ID_CONFLICT) when the id was used for another user or amount;
// FAILED_PRECONDITION (EXECUTION_FENCED) when the named execution may not start an attempt.
import type { UnaryHandler } from "@agentic/platform";
import type { HoldCreditsRequest, HoldCreditsResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function holdCredits(ledger: Ledger): UnaryHandler<HoldCreditsRequest, HoldCreditsResponse> {
  return async (req) => {
    const { execution, ...holdRequest } = req;
    const { hold, wallet, replayed } = await ledger.holdCredits({
      ...holdRequest,
      ...(execution
        ? {
            execution: {
              executionId: execution.executionId,
              capabilityKey: execution.capabilityKey,
              idempotencyKey: execution.idempotencyKey,
            },
          }
        : {}),
    });
    return { hold, wallet, replayed };
  };
}
