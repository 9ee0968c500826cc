// GetHold: one hold and its state; NOT_FOUND (HOLD_NOT_FOUND) when unknown.
import type { UnaryHandler } from "@agentic/platform";
import type { GetHoldRequest, GetHoldResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function getHold(ledger: Ledger): UnaryHandler<GetHoldRequest, GetHoldResponse> {
  return async (req) => ({ hold: await ledger.getHold(req.holdId) });
}
