// What recommend needs from outside the domain besides the catalog (read through the catalog cache of
// @agentic/clients): the caller's wallet balance. src/wallet/ implements it over the ledger.
import type { CallOpts } from "@agentic/platform";

export interface WalletReader {
  /** Credits the user can spend now (a user without a wallet has 0). */
  balanceCredits(userId: string, opts?: CallOpts): Promise<number>;
}
