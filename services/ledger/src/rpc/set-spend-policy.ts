// SetSpendPolicy (admin): sets or clears the spend policy of a key or of one agent under it.
// NOT_FOUND (API_KEY_NOT_FOUND) for an unknown key; INVALID_ARGUMENT for a policy that limits nothing.
import type { UnaryHandler } from "@agentic/platform";
import type { SetSpendPolicyRequest, SetSpendPolicyResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { invalidField } from "../domain/errors";
import { toSpendPolicyStatusMessage } from "./convert";

export function setSpendPolicy(ledger: Ledger): UnaryHandler<SetSpendPolicyRequest, SetSpendPolicyResponse> {
  return async (req) => {
    const p = req.policy;
    if (!p) throw invalidField("policy", "policy is required.", "Send the policy with at least its key_id.");
    // The message has the fields SetSpendPolicy validates (SpendPolicyInput); the domain reads only those.
    const status = await ledger.setSpendPolicy(p, req.clear);
    return status ? { status: toSpendPolicyStatusMessage(status) } : {};
  };
}
