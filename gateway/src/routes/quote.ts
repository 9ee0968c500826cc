// POST /domains/{d}/capabilities/{id}/quote: the price of executing this body, reserved. Takes the
// execute body (and Agent-Name), asks the executor to plan it as execute would and to reserve the
// route's price in the ledger, and answers the quote: an execute with the same body plus its quoteId
// runs on that route at that price until expiresAt.
import { Router, type RequestHandler } from "express";
import type { ExecutorClient } from "@agentic/clients";
import type { QuoteResponse } from "@agentic/proto/executor/v1";
import { objectBody } from "./body";
import { callerAgentName } from "./caller-agent";
import { parseParams } from "../http/request-schema";
import { capabilityParams } from "./requests/capability";
import { decisionHeader, ROUTE_DECISION_HEADER, toDecision } from "./execute-decision";

/** The REST quote. */
export function toQuoteResponse(q: QuoteResponse) {
  return {
    success: true as const,
    quoteId: q.quoteId,
    routeKey: q.routeKey,
    provider: q.provider,
    priceCredits: q.priceCredits,
    expiresAt: (q.expiresAt ?? new Date(0)).toISOString(),
    balanceAfterCredits: q.balanceAfterCredits,
    blockingRequirements: q.blockingRequirements,
    nextActions: q.nextActions,
    decision: toDecision(q.decision),
  };
}

export function quoteRoutes(executor: ExecutorClient, auth: RequestHandler): Router {
  const routes = Router();
  routes.post("/domains/:domainKey/capabilities/:capabilityId/quote", auth, async (req, res) => {
    const { domainKey, capabilityId } = parseParams(capabilityParams, req);
    const agentName = callerAgentName(req, res.locals.caller);
    const quote = await executor.quote({
      userId: res.locals.caller.userId,
      keyId: res.locals.caller.keyId,
      domainKey,
      capabilityId,
      input: objectBody(req),
      ...(agentName !== undefined ? { agentName } : {}),
    });
    const body = toQuoteResponse(quote);
    res.setHeader(ROUTE_DECISION_HEADER, decisionHeader(body.decision));
    res.json(body);
  });
  return routes;
}
