// GetSpendPolicies (admin): one key's spend policies, or every key's of a user, with their current period.
import type { UnaryHandler } from "@agentic/platform";
import type { GetSpendPoliciesRequest, GetSpendPoliciesResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toSpendPolicyStatusMessage } from "./convert";

export function getSpendPolicies(ledger: Ledger): UnaryHandler<GetSpendPoliciesRequest, GetSpendPoliciesResponse> {
  return async (req) => ({ policies: (await ledger.getSpendPolicies(req.keyId, req.userId)).map(toSpendPolicyStatusMessage) });
}
