// GetWallet: balance and held credits; a user without a wallet reads as zero. With the spend policies
// that apply to the calling key and agent (or to every key of the user when no key is named).
import type { UnaryHandler } from "@agentic/platform";
import type { GetWalletRequest, GetWalletResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toSpendPolicyStatusMessage } from "./convert";

export function getWallet(ledger: Ledger): UnaryHandler<GetWalletRequest, GetWalletResponse> {
  return async (req) => {
    const [wallet, policies] = await Promise.all([
      ledger.getWallet(req.userId),
      ledger.walletPolicies(req.userId, req.keyId, req.agentName),
    ]);
    return { wallet, spendPolicies: policies.map(toSpendPolicyStatusMessage) };
  };
}
