// Pending top-ups and their resolution by an operator. A top-up stays pending while the ledger has no
// evidence the transfer reached us: a settlement whose answer was lost, or a retry the facilitator
// answered "nonce already used" (our earlier settle may have moved the funds, or the payer may have
// burnt the nonce on chain meanwhile: only the chain can tell). An operator lists them
// (`npm run ledger -- top-ups`), checks the chain for a transfer from the payer with that nonce to our
// address, and ends each once with a reason: credited (the one mechanism for money in: a grant entry
// keyed by the top-up id) or failed.
import { LedgerError, invalidField } from "./errors";
import type { LedgerStore } from "./ports";
import type { TopUpRecord } from "./top-up";
import type { Wallet } from "./types";
import { limitOrDefault, optionalText, requireId, requireText } from "./validate";

/** ResolveTopUp as asked: the operator's decision on one pending top-up. */
export interface TopUpResolutionRequest {
  topUpId: string;
  outcome: string;
  reason: string;
  transaction: string;
  operatorName: string;
  /** The verified caller identity. */
  operator: string;
}

export interface TopUpResolution {
  topUpId: string;
  state: "credited" | "failed";
  creditedCredits: number;
  wallet: Wallet;
}

const MAX_REASON_LENGTH = 500;
const DEFAULT_PENDING_LIMIT = 100;
const MAX_PENDING_LIMIT = 1000;

const topUpNotFound = (topUpId: string) =>
  new LedgerError("not_found", "TOP_UP_NOT_FOUND", `No top-up ${topUpId}.`, "List the pending ones: npm run ledger -- top-ups.");

const topUpNotPending = (record: TopUpRecord) =>
  new LedgerError(
    "failed_precondition",
    "TOP_UP_NOT_PENDING",
    `Top-up ${record.topUpId} has ended already (${record.state}); nothing was changed.`,
    "A top-up is resolved once; list the pending ones: npm run ledger -- top-ups.",
    { state: record.state },
  );

export function createTopUpResolution(deps: { store: LedgerStore; now: () => Date }) {
  const { store, now } = deps;
  return {
    /** Pending top-ups, oldest attempt first, at most `limit` (default 100). */
    async listPendingTopUps(limit: number): Promise<TopUpRecord[]> {
      return store.listStalePendingTopUps(now(), limitOrDefault("limit", limit, DEFAULT_PENDING_LIMIT, MAX_PENDING_LIMIT));
    },

    /** Ends one pending top-up with the operator's decision, once (TOP_UP_NOT_PENDING after that). */
    async resolveTopUp(req: TopUpResolutionRequest): Promise<TopUpResolution> {
      const topUpId = requireId("top_up_id", req.topUpId);
      if (req.outcome !== "credit" && req.outcome !== "fail")
        throw invalidField("outcome", "outcome must be credit or fail.", "Send outcome credit (the transfer to us is proven) or fail.");
      const reason = requireText("reason", req.reason, MAX_REASON_LENGTH);
      const operator = requireId("operator", req.operator);
      const who = { operator, ...(req.operatorName ? { operatorName: optionalText("operator_name", req.operatorName, 200) } : {}) };
      const transaction = req.transaction ? optionalText("transaction", req.transaction, 200) : "";
      const decision = JSON.stringify({ resolvedBy: who, reason, ...(transaction ? { transaction } : {}) });
      const result = await store.finishTopUp({
        topUpId,
        outcome:
          req.outcome === "credit"
            ? { state: "credited", ...(transaction ? { transaction } : {}), settlement: decision }
            : { state: "failed", reason: `operator: ${reason}`, settlement: decision },
        now: now(),
      });
      if (result.status === "unknown") throw topUpNotFound(topUpId);
      if (result.status === "already") throw topUpNotPending(result.record);
      const state = result.record.state === "credited" ? "credited" : "failed";
      return {
        topUpId,
        state,
        creditedCredits: state === "credited" ? result.record.amountCredits : 0,
        wallet: result.wallet ?? (await store.getWallet(result.record.userId)),
      };
    },
  };
}
