// GET /wallet and GET /usage: the caller's balance and money history (executions and credit movements), a page at a time.
import { Router, type Request, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { fromServiceError } from "@agentic/platform";
import type { GetWalletResponse, ListUsageRequest, ListUsageResponse } from "@agentic/proto/ledger/v1";
import { invalidInput } from "../errors";
import { toSpendPolicy, toUsageItem } from "../mappers/ledger";
import { callerAgentName } from "./caller-agent";
import { parseQuery } from "../http/request-schema";
import { usageQuery } from "./requests/usage";
import { walletQuery } from "./requests/wallet";

/** GET /usage's query (requests/usage.ts) as a ListUsage request: 400 INVALID_INPUT naming the first bad parameter. */
export function parseUsageQuery(req: Request, userId: string): ListUsageRequest {
  const { limit, cursor, from, to, agentName, capabilityKey, kind } = parseQuery(usageQuery, req, "GET /usage");
  if (from && to && from.getTime() >= to.getTime())
    throw invalidInput("to", "must be after from", "Send from before to: the range is [from, to).");
  return { userId, limit, cursor, from, to, agentName, capabilityKey, kind };
}

/** GET /wallet's body (also GET /overview's `wallet`). */
export function walletAnswer(userId: string, { wallet, spendPolicies }: GetWalletResponse) {
  return {
    success: true as const,
    userId,
    balanceCredits: wallet?.balanceCredits ?? 0,
    reservedCredits: wallet?.heldCredits ?? 0,
    spendPolicies: spendPolicies.map(toSpendPolicy),
  };
}

/** GET /usage's body (also GET /overview's `latestCharges`). */
export function usageAnswer(userId: string, page: ListUsageResponse) {
  return { success: true as const, userId, items: page.items.map(toUsageItem), nextCursor: page.nextCursor ?? null };
}

export function walletRoutes(ledger: LedgerClient, auth: RequestHandler, opts: { allowUserOverride: boolean }): Router {
  const router = Router();

  router.get("/wallet", auth, async (req, res) => {
    // The override exists only outside production, for development and support tooling.
    const override = opts.allowUserOverride ? walletQuery.parse(req.query).userId : undefined;
    const userId = override ?? res.locals.caller.userId;
    // The policies of the calling key (and of the agent it acts as); another user's wallet shows all its keys'.
    const agentName = callerAgentName(req, res.locals.caller);
    const wallet = await ledger.getWallet({
      userId,
      ...(override ? {} : { keyId: res.locals.caller.keyId }),
      ...(agentName ? { agentName } : {}),
    });
    res.json(walletAnswer(userId, wallet));
  });

  router.get("/usage", auth, async (req, res) => {
    const { userId } = res.locals.caller;
    const query = parseUsageQuery(req, userId);
    const page = await ledger.listUsage(query).catch((err: unknown) => {
      // A well-formed cursor the ledger did not make (edited, or from another list): the client's mistake.
      const remote = fromServiceError(err);
      if (remote.code === "INVALID_ARGUMENT" && remote.details?.field === "cursor")
        throw invalidInput("cursor", "is not a cursor of this list", "Send nextCursor exactly as the previous page gave it.");
      throw err;
    });
    res.json(usageAnswer(userId, page));
  });

  return router;
}
