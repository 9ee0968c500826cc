// HoldCredits: reserves credits for one execution attempt, once per hold_id. FAILED_PRECONDITION
// (CREDITS_REQUIRED, details requiredCredits and balanceCredits) when the balance is short;
// ALREADY_EXISTS (HOLD_ID_CONFLICT) when the id was used for another user or amount.
import type { UnaryHandler } from "@agentic/platform";
import type { HoldCreditsRequest, HoldCreditsResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { withLedgerErrors } from "./errors";

export function holdCredits(ledger: Ledger): UnaryHandler<HoldCreditsRequest, HoldCreditsResponse> {
  return withLedgerErrors(async (req) => {
    const { hold, wallet, replayed } = await ledger.holdCredits(req);
    return { hold, wallet, replayed };
  });
}
