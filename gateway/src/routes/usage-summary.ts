// GET /usage/summary: the caller's spend over a range summed per UTC day, capability, route and agent,
// computed by the ledger in one query (a chart of 30 days is one request, not a walk through every usage item).
import { Router, type Request, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import type { SpendTotal, SummarizeUsageResponse } from "@agentic/proto/ledger/v1";
import { invalidInput } from "../errors";
import { parseQuery } from "../http/request-schema";
import { summaryQuery } from "./requests/usage";

const DAY_MS = 86_400_000;
/** The longest range one summary covers, as the ledger allows it. */
export const MAX_SUMMARY_DAYS = 366;
/** Without from and to: the last 30 UTC days, today included. */
export const DEFAULT_SUMMARY_DAYS = 30;

/** A summary's [from, to), by default the last 30 UTC days; 400 INVALID_INPUT when out of order or too long. */
export function summaryRange(query: { from?: Date; to?: Date }, now = new Date()): { from: Date; to: Date } {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const to = query.to ?? tomorrow;
  const from = query.from ?? new Date(to.getTime() - DEFAULT_SUMMARY_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) throw invalidInput("to", "must be after from", "Send from before to: the range is [from, to).");
  if (to.getTime() - from.getTime() > MAX_SUMMARY_DAYS * DAY_MS)
    throw invalidInput("to", `must be at most ${MAX_SUMMARY_DAYS} days after from`, `Ask for at most ${MAX_SUMMARY_DAYS} days at a time.`);
  return { from, to };
}

/** The range and filters of GET /usage/summary; 400 INVALID_INPUT naming the first bad parameter. */
export function parseSummaryQuery(req: Request, now = new Date()) {
  const query = parseQuery(summaryQuery, req, "GET /usage/summary");
  return { ...summaryRange(query, now), agentName: query.agentName, capabilityKey: query.capabilityKey };
}

const group = <K extends string>(name: K, totals: SpendTotal[]) =>
  totals.map((t) => ({ [name]: t.key, credits: t.credits, count: t.count }) as { [P in K]: string } & { credits: number; count: number });

/** GET /usage/summary's body (also GET /overview's `spend`). */
export function summaryAnswer(userId: string, range: { from: Date; to: Date }, s: SummarizeUsageResponse) {
  return {
    success: true as const,
    userId,
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    totalCredits: s.totalCredits,
    count: s.count,
    byDay: group("day", s.byDay),
    byCapability: group("capabilityKey", s.byCapability),
    byRoute: group("routeKey", s.byRoute),
    // Charges made without an Agent-Name are the group without agentName.
    byAgent: s.byAgent.map((t) => ({ ...(t.key ? { agentName: t.key } : {}), credits: t.credits, count: t.count })),
  };
}

export function usageSummaryRoutes(ledger: LedgerClient, auth: RequestHandler): Router {
  const router = Router();

  router.get("/usage/summary", auth, async (req, res) => {
    const { userId } = res.locals.caller;
    const query = parseSummaryQuery(req);
    res.json(summaryAnswer(userId, query, await ledger.summarizeUsage({ userId, ...query })));
  });

  return router;
}
