// GET /wallet and GET /usage: the caller's balance and recent execution outcomes.
import { Router, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { invalidInput } from "../errors";
import { toUsageItem } from "../mappers/ledger";

export const USAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Parses ?limit=: an integer 1..100, default 20; anything else is a 400. */
export function parseUsageLimit(raw: unknown): number {
  if (raw === undefined) return USAGE_LIMIT.default;
  if (typeof raw !== "string" || !/^\d+$/.test(raw)) throw invalidInput("limit", "must be an integer from 1 to 100", "Send ?limit= with a whole number from 1 to 100.");
  const limit = Number(raw);
  if (limit < USAGE_LIMIT.min || limit > USAGE_LIMIT.max) throw invalidInput("limit", "must be from 1 to 100", "Send ?limit= with a whole number from 1 to 100.");
  return limit;
}

export function walletRoutes(ledger: LedgerClient, auth: RequestHandler, opts: { allowUserOverride: boolean }): Router {
  const router = Router();

  router.get("/wallet", auth, async (req, res) => {
    // The override exists only outside production, for development and support tooling.
    const override = opts.allowUserOverride && typeof req.query.userId === "string" && req.query.userId !== "" ? req.query.userId : undefined;
    const userId = override ?? res.locals.caller.userId;
    const { wallet } = await ledger.getWallet({ userId });
    res.json({ success: true, userId, balanceCredits: wallet?.balanceCredits ?? 0 });
  });

  router.get("/usage", auth, async (req, res) => {
    const limit = parseUsageLimit(req.query.limit);
    const { userId } = res.locals.caller;
    const { items } = await ledger.listUsage({ userId, limit });
    res.json({ success: true, userId, items: items.map(toUsageItem) });
  });

  return router;
}
