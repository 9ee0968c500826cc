// GET /overview: the caller's account at a glance, in one answer: the wallet (as GET /wallet gives it),
// the spend of a range summed per day, capability, route and agent (as GET /usage/summary) and the
// latest charges (as GET /usage?kind=charge). The gateway asks the ledger for the three at once, so a
// dashboard (the console's Overview) is one request and one round trip to the ledger, not three.
import { Router, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { parseQuery } from "../http/request-schema";
import { callerAgentName } from "./caller-agent";
import { overviewQuery } from "./requests/usage";
import { summaryAnswer, summaryRange } from "./usage-summary";
import { usageAnswer, walletAnswer } from "./wallet";

export function overviewRoutes(ledger: LedgerClient, auth: RequestHandler): Router {
  const router = Router();

  router.get("/overview", auth, async (req, res) => {
    const { userId, keyId } = res.locals.caller;
    const query = parseQuery(overviewQuery, req, "GET /overview");
    const range = summaryRange(query);
    // The spend policies of the calling key and agent, as GET /wallet shows them.
    const agentName = callerAgentName(req, res.locals.caller);
    const [wallet, spend, charges] = await Promise.all([
      ledger.getWallet({ userId, keyId, ...(agentName ? { agentName } : {}) }),
      ledger.summarizeUsage({ userId, ...range }),
      ledger.listUsage({ userId, limit: query.latest, kind: "charge" }),
    ]);
    res.json({
      success: true,
      userId,
      wallet: walletAnswer(userId, wallet),
      spend: summaryAnswer(userId, range, spend),
      latestCharges: usageAnswer(userId, charges),
    });
  });

  return router;
}
