// The caller's spendable balance and spend policies, read with ONE ledger call (GetWallet), or none when
// the wallet cache holds a fresh answer (wallet-cache.ts). Read-only: recommend never holds, captures or grants credits.
import { fromServiceError, invalidArgument, unavailable, type Logger } from "@agentic/platform";
import type { LedgerClient } from "@agentic/clients";
import type { SpendPolicyStatus } from "@agentic/proto/ledger/v1";
import type { SpendLimit, WalletReader } from "@agentic/ranking/domain";
import type { WalletCache } from "./wallet-cache";

/** The ledger's reader through `cache`: a fresh cached answer, else one GetWallet (a failure is never cached). */
export function createCachedWalletReader(ledger: Pick<LedgerClient, "getWallet">, cache: WalletCache, logger: Logger): WalletReader {
  const reader = createLedgerWalletReader(ledger, logger);
  return { read: (owner, opts) => cache.read(owner, () => reader.read(owner, opts)) };
}

/**
 * A WalletReader over the ledger client. A ledger INVALID_ARGUMENT keeps its code and hint; any
 * other failure is UNAVAILABLE (logged here, never shown).
 */
export function createLedgerWalletReader(ledger: Pick<LedgerClient, "getWallet">, logger: Logger): WalletReader {
  return {
    async read({ userId, keyId, agentName }, opts) {
      try {
        // Without a key id (a caller that does not say which key calls) the ledger answers the policies of all the user's keys.
        const res = await ledger.getWallet({ userId, ...(keyId ? { keyId } : {}), ...(agentName ? { agentName } : {}) }, opts);
        return { balanceCredits: res.wallet?.balanceCredits ?? 0, spendLimits: (res.spendPolicies ?? []).map(toSpendLimit) };
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

function toSpendLimit(s: SpendPolicyStatus): SpendLimit {
  const p = s.policy;
  return {
    owner: `key ${p?.keyId ?? ""}${p?.agentName !== undefined ? ` (agent ${p.agentName})` : ""}`,
    remainingCredits: s.remainingCredits,
    maxPriceCredits: p?.maxPriceCredits,
    caps: s.capabilityCaps.map((c) => ({
      capabilityKey: c.cap?.capabilityKey ?? "",
      remainingCredits: c.cap?.maxCredits !== undefined ? Math.max(0, c.cap.maxCredits - c.spentCredits) : undefined,
      remainingCount: c.cap?.maxCount !== undefined ? Math.max(0, c.cap.maxCount - c.count) : undefined,
    })),
    resetsAt: s.resetsAt?.toISOString(),
  };
}
