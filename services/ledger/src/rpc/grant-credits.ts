// GrantCredits: adds credits once per grant_id; ALREADY_EXISTS (GRANT_ID_CONFLICT) when the id was
// used for another user or amount.
import type { UnaryHandler } from "@agentic/platform";
import type { GrantCreditsRequest, GrantCreditsResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function grantCredits(ledger: Ledger): UnaryHandler<GrantCreditsRequest, GrantCreditsResponse> {
  return async (req) => ledger.grantCredits(req);
}
