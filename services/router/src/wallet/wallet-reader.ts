// The caller's spendable balance, read with ONE ledger call (GetWallet) per recommend. Read-only:
// recommend never holds, captures or grants credits.
import { fromServiceError, invalidArgument, unavailable, type Logger } from "@agentic/platform";
import type { LedgerClient } from "@agentic/clients";
import type { WalletReader } from "../domain/ports";

/**
 * A WalletReader over the ledger client. A ledger INVALID_ARGUMENT keeps its code and hint; any
 * other failure is UNAVAILABLE (logged here, never shown).
 */
export function createLedgerWalletReader(ledger: Pick<LedgerClient, "getWallet">, logger: Logger): WalletReader {
  return {
    async balanceCredits(userId, opts) {
      try {
        const res = await ledger.getWallet({ userId }, opts);
        return res.wallet?.balanceCredits ?? 0;
      } catch (err) {
        const remote = fromServiceError(err);
        if (remote.kind === "invalid_argument") throw invalidArgument(remote.code, remote.message, remote.hint);
        logger.warn({ err }, "ledger GetWallet failed");
        throw unavailable(
          "UNAVAILABLE",
          "the wallet could not be read",
          "Retry shortly; recommend reads the wallet to say what can run now.",
        );
      }
    },
  };
}
