// ListPendingTopUps (admin only): the top-ups still pending, oldest attempt first, with what an
// operator needs to look for their transfer on chain (payer, nonce, pay_to, amount).
import type { UnaryHandler } from "@agentic/platform";
import type { ListPendingTopUpsRequest, ListPendingTopUpsResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function listPendingTopUps(ledger: Ledger): UnaryHandler<ListPendingTopUpsRequest, ListPendingTopUpsResponse> {
  return async (req) => {
    const records = await ledger.listPendingTopUps(req.limit);
    return {
      topUps: records.map((r) => ({
        topUpId: r.topUpId,
        userId: r.userId,
        network: r.network,
        asset: r.asset,
        payer: r.payer,
        nonce: r.nonce,
        payTo: r.payTo,
        amountAtomic: r.amountAtomic,
        amountCredits: r.amountCredits,
        createdAt: r.createdAt,
        attemptedAt: r.attemptedAt,
        attempts: r.attempts,
      })),
    };
  };
}
