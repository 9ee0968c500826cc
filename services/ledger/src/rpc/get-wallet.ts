// GetWallet: balance and held credits; a user without a wallet reads as zero.
import type { UnaryHandler } from "@agentic/platform";
import type { GetWalletRequest, GetWalletResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function getWallet(ledger: Ledger): UnaryHandler<GetWalletRequest, GetWalletResponse> {
  return async (req) => ({ wallet: await ledger.getWallet(req.userId) });
}
