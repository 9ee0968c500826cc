// GET /overview: the caller's account at a glance, in one answer: the wallet (as GET /wallet gives it),
// the spend of a range summed per day, capability, route and agent (as GET /usage/summary) and the
// latest charges (as GET /usage?kind=charge). The gateway asks the ledger for the three at once, so a
// dashboard (the console's Overview) is one request and one round trip to the ledger, not three.
import { Router, type Request, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { invalidInput } from "../errors";
import { callerAgentName } from "./caller-agent";
import { parseSummaryRange, summaryAnswer } from "./usage-summary";
import { single, usageAnswer, walletAnswer } from "./wallet";

const OVERVIEW_PARAMS = ["from", "to", "latest"];
/** How many of the latest charges an overview carries. */
export const OVERVIEW_LATEST = { min: 1, max: 100, default: 10 } as const;

/** ?latest=: an integer 1..100, default 10. */
function parseLatest(raw: string | undefined): number {
  if (raw === undefined) return OVERVIEW_LATEST.default;
  const latest = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(latest >= OVERVIEW_LATEST.min && latest <= OVERVIEW_LATEST.max))
    throw invalidInput(
      "latest",
      "must be an integer from 1 to 100",
      "Send ?latest= with a whole number from 1 to 100, or leave it out for 10.",
    );
  return latest;
}

/** GET /overview's query; 400 INVALID_INPUT naming the first bad parameter. */
export function parseOverviewQuery(req: Request, now = new Date()) {
  const unknown = Object.keys(req.query).find((name) => !OVERVIEW_PARAMS.includes(name));
  if (unknown !== undefined) throw invalidInput(unknown, "is not a parameter of GET /overview", `Use only ${OVERVIEW_PARAMS.join(", ")}.`);
  return { ...parseSummaryRange(req, now), latest: parseLatest(single(req, "latest")) };
}

export function overviewRoutes(ledger: LedgerClient, auth: RequestHandler): Router {
  const router = Router();

  router.get("/overview", auth, async (req, res) => {
    const { userId, keyId } = res.locals.caller;
    const { from, to, latest } = parseOverviewQuery(req);
    // The spend policies of the calling key and agent, as GET /wallet shows them.
    const agentName = callerAgentName(req, res.locals.caller);
    const [wallet, spend, charges] = await Promise.all([
      ledger.getWallet({ userId, keyId, ...(agentName ? { agentName } : {}) }),
      ledger.summarizeUsage({ userId, from, to }),
      ledger.listUsage({ userId, limit: latest, kind: "charge" }),
    ]);
    res.json({
      success: true,
      userId,
      wallet: walletAnswer(userId, wallet),
      spend: summaryAnswer(userId, { from, to }, spend),
      latestCharges: usageAnswer(userId, charges),
    });
  });

  return router;
}
