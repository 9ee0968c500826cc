// GET /usage/export: every usage item GET /usage's filters select, as CSV, newest first. The answer streams:
// the gateway reads the ledger a page at a time and writes each page when the client has taken the last, so
// memory stays flat however many rows there are, and a client that goes away stops the walk.
import { once } from "node:events";
import { Router, type RequestHandler } from "express";
import { stringify } from "csv-stringify/sync";
import type { LedgerClient } from "@agentic/clients";
import { toUsageItem } from "../mappers/ledger";
import { parseUsageQuery } from "./wallet";

/** The columns of the export, in order (a credit movement leaves the execution's empty, and the other way round). */
export const USAGE_CSV_COLUMNS = [
  "id",
  "createdAt",
  "kind",
  "capabilityKey",
  "routeKey",
  "provider",
  "agentName",
  "status",
  "errorCode",
  "durationMs",
  "creditsCharged",
  "amountCredits",
  "reason",
  "reference",
  "traceId",
] as const;

const PAGE = 100;

export function usageExportRoutes(ledger: LedgerClient, auth: RequestHandler): Router {
  const router = Router();

  router.get("/usage/export", auth, async (req, res) => {
    const query = parseUsageQuery(req, res.locals.caller.userId);
    // The first page is read before the headers go out, so a refused query is still an ErrorResponse.
    let page = await ledger.listUsage({ ...query, limit: PAGE, cursor: undefined });
    res.status(200);
    res.setHeader("Content-Type", "text/csv; charset=utf-8");
    res.setHeader("Content-Disposition", 'attachment; filename="usage.csv"');
    res.write(stringify([USAGE_CSV_COLUMNS as unknown as string[]]));
    let closed = false;
    res.on("close", () => (closed = true));
    try {
      await writePages();
    } catch {
      // The headers are gone: a cut-off answer (no final newline-terminated end) is how a stream says it failed.
      res.destroy();
      return;
    }
    res.end();

    async function writePages() {
      for (;;) {
        const rows = page.items.map((item) => {
          const u = toUsageItem(item) as Record<string, unknown>;
          return USAGE_CSV_COLUMNS.map((c) => (u[c] === undefined ? "" : String(u[c])));
        });
        if (rows.length > 0 && !res.write(stringify(rows))) await Promise.race([once(res, "drain"), once(res, "close")]);
        if (closed || !page.nextCursor) break;
        page = await ledger.listUsage({ ...query, limit: PAGE, cursor: page.nextCursor });
      }
    }
  });

  return router;
}
