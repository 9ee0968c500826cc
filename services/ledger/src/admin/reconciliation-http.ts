// The reconciliation as JSON on the ledger's internal metrics port (never the public gateway):
// GET /admin/reconciliation?from=YYYY-MM-DD&to=YYYY-MM-DD (UTC days, both inclusive; `to` defaults
// to `from`). The same report as the admin RPC GetReconciliation, read in-process.
import type { JsonHandler } from "@agentic/platform";
import { LedgerError } from "../domain/errors";
import type { Ledger } from "../domain/ledger";

export const RECONCILIATION_PATH = "/admin/reconciliation";

/** The RPC's field names, as this endpoint's query names them. */
const QUERY_FIELD: Record<string, string> = { from_date: "from", to_date: "to" };

export function reconciliationHandler(ledger: Ledger): JsonHandler {
  return async (url) => {
    const from = url.searchParams.get("from") ?? "";
    const to = url.searchParams.get("to") || from;
    try {
      return { status: 200, body: await ledger.reconciliation(from, to) };
    } catch (err) {
      if (!(err instanceof LedgerError) || err.kind !== "invalid_argument") throw err;
      const field = typeof err.details?.field === "string" ? (QUERY_FIELD[err.details.field] ?? err.details.field) : undefined;
      return {
        status: 400,
        body: {
          code: "INVALID_ARGUMENT",
          error: err.message,
          hint: `Send ${RECONCILIATION_PATH}?from=2026-11-01&to=2026-11-30 (UTC days, at most 366).`,
          field,
        },
      };
    }
  };
}
