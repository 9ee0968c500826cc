// ResolveTopUp (admin only): an operator's decision on one pending top-up (credit or fail, with a
// reason), recorded with the verified caller identity; once: TOP_UP_NOT_PENDING after that.
import type { UnaryHandler } from "@agentic/platform";
import type { ResolveTopUpRequest, ResolveTopUpResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function resolveTopUp(ledger: Ledger): UnaryHandler<ResolveTopUpRequest, ResolveTopUpResponse> {
  // The caller is always set behind guardService; "" would be refused as a missing operator, never guessed.
  return async (req, ctx) => ledger.resolveTopUp({ ...req, operator: ctx.caller ?? "" });
}
