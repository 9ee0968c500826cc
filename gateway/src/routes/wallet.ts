// GET /wallet and GET /usage: the caller's balance and money history (executions and credit movements), a page at a time.
import { Router, type Request, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { fromServiceError, parseAgentName } from "@agentic/platform";
import type { GetWalletResponse, ListUsageRequest, ListUsageResponse } from "@agentic/proto/ledger/v1";
import { invalidInput } from "../errors";
import { toSpendPolicy, toUsageItem } from "../mappers/ledger";
import { callerAgentName } from "./caller-agent";

export const USAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Parses ?limit=: an integer 1..100, default 20; anything else is a 400. */
export function parseUsageLimit(raw: unknown): number {
  if (raw === undefined) return USAGE_LIMIT.default;
  if (typeof raw !== "string" || !/^\d+$/.test(raw))
    throw invalidInput("limit", "must be an integer from 1 to 100", "Send ?limit= with a whole number from 1 to 100.");
  const limit = Number(raw);
  if (limit < USAGE_LIMIT.min || limit > USAGE_LIMIT.max)
    throw invalidInput("limit", "must be from 1 to 100", "Send ?limit= with a whole number from 1 to 100.");
  return limit;
}

/** What GET /usage?kind= accepts: an execution's charge, or a credit movement. */
export const USAGE_KINDS = ["charge", "grant", "refund", "adjustment", "top_up"] as const;
/** GET /usage's query parameters; any other is a 400, so a misspelt filter never answers unfiltered. */
const USAGE_PARAMS = ["limit", "cursor", "from", "to", "agentName", "capabilityKey", "kind"];
/** An RFC 3339 date-time with its offset (2026-11-01T00:00:00Z). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,1024}$/;
export const CAPABILITY_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** One query parameter, given at most once; undefined when absent. */
export function single(req: Request, name: string): string | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== "string") throw invalidInput(name, "must be given once, as a plain value", `Send ?${name}= once.`);
  return raw;
}

export function parseTime(name: "from" | "to", raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const at = DATE_TIME.test(raw) ? new Date(raw) : undefined;
  if (!at || Number.isNaN(at.getTime()))
    throw invalidInput(
      name,
      "must be an RFC 3339 date-time with an offset",
      `Send ?${name}= like 2026-11-01T00:00:00Z (a + offset as %2B).`,
    );
  return at;
}

/** GET /usage's query as a ListUsage request: each parameter checked, 400 INVALID_INPUT naming the first bad one. */
export function parseUsageQuery(req: Request, userId: string): ListUsageRequest {
  const unknown = Object.keys(req.query).find((name) => !USAGE_PARAMS.includes(name));
  if (unknown !== undefined) throw invalidInput(unknown, "is not a parameter of GET /usage", `Use only ${USAGE_PARAMS.join(", ")}.`);
  const limit = parseUsageLimit(req.query.limit);
  const cursor = single(req, "cursor");
  if (cursor !== undefined && !CURSOR_PATTERN.test(cursor))
    throw invalidInput("cursor", "is not a cursor of this list", "Send nextCursor exactly as the previous page gave it.");
  const from = parseTime("from", single(req, "from"));
  const to = parseTime("to", single(req, "to"));
  if (from && to && from.getTime() >= to.getTime())
    throw invalidInput("to", "must be after from", "Send from before to: the range is [from, to).");
  // Normalized as the executions' Agent-Name was.
  const agentNameParam = single(req, "agentName");
  const parsedAgent = agentNameParam !== undefined ? parseAgentName(agentNameParam) : undefined;
  if (parsedAgent && "problem" in parsedAgent)
    throw invalidInput("agentName", parsedAgent.problem, "Send the Agent-Name the executions were made with.");
  const agentName = parsedAgent?.name;
  const capabilityKey = single(req, "capabilityKey");
  if (capabilityKey !== undefined && !CAPABILITY_KEY_PATTERN.test(capabilityKey))
    throw invalidInput("capabilityKey", "must be a capability key, e.g. email.send", "Send a capabilityKey as usage items show it.");
  const kind = single(req, "kind");
  if (kind !== undefined && !(USAGE_KINDS as readonly string[]).includes(kind))
    throw invalidInput("kind", `must be one of ${USAGE_KINDS.join(", ")}`, "Send one kind, or leave kind out for all.");
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
    const override =
      opts.allowUserOverride && typeof req.query.userId === "string" && req.query.userId !== "" ? req.query.userId : undefined;
    const userId = override ?? res.locals.caller.userId;
    // The policies of the calling key (and of the agent it acts as); another user's wallet shows all its keys'.
    const agentName = callerAgentName(req, res.locals.caller);
    res.json(
      walletAnswer(
        userId,
        await ledger.getWallet({
          userId,
          ...(override ? {} : { keyId: res.locals.caller.keyId }),
          ...(agentName ? { agentName } : {}),
        }),
      ),
    );
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
