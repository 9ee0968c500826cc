// GetReconciliation (admin only): per route and UTC day, what the platform paid sellers against what
// it charged, with every platform loss of the range.
import type { UnaryHandler } from "@agentic/platform";
import type { GetReconciliationRequest, GetReconciliationResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toPlatformLossMessage } from "./convert";

export function getReconciliation(ledger: Ledger): UnaryHandler<GetReconciliationRequest, GetReconciliationResponse> {
  return async (req) => {
    const report = await ledger.reconciliation(req.fromDate, req.toDate);
    return {
      fromDate: report.fromDate,
      toDate: report.toDate,
      rows: report.rows,
      losses: report.losses.map(toPlatformLossMessage),
      totals: report.totals,
      creditMovements: report.creditMovements,
    };
  };
}
