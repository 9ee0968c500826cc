// POST /domains/{d}/capabilities/{id}/execute: the paid operation. Reads the Idempotency-Key and
// Agent-Name headers, calls the executor (which validates the body against the contract, holds,
// calls the provider and settles), and renders GenericExecutionResponse without internal fields.
// Payable 402: a CREDITS_REQUIRED answer also carries an x402 PAYMENT-REQUIRED challenge for the
// call's price; a retry with PAYMENT-SIGNATURE first tops the wallet up by that payment (through the
// ledger, like POST /wallet/top-up) and then executes as usual, so holds, charges and idempotency stay
// the ledger's and the executor's. Every answer explains its routing: `decision` in the body and its
// short form in Agentic-Route-Decision (a replay carries the decision stored with it).
import { Router, type Request, type RequestHandler, type Response } from "express";
import { fromServiceError } from "@agentic/platform";
import type { ExecutorClient, LedgerClient } from "@agentic/clients";
import type { ExecuteResponse } from "@agentic/proto/executor/v1";
import { objectBody } from "./body";
import { agentOfCaller } from "./caller-agent";
import { parseHeaders, parseParams } from "../http/request-schema";
import { executeHeaders, paymentHeaders } from "./requests/headers";
import { capabilityParams } from "./requests/capability";
import { callExecutor } from "./execute-call";
import { sendJson } from "../http/send-json";
import { decisionHeader, ROUTE_DECISION_HEADER, toDecision } from "./execute-decision";
import { creditsOfPayment, quoteTopUp, refusedPayment, setChallenge, setPaymentResponse, topUp } from "../payments/x402";

/**
 * The REST body: GenericExecutionResponse (execution id, replay flag and attempts stay internal), plus
 * `usage`, the tokens the vendor reported, when it did (a per-token route's creditsCharged comes from them),
 * and `decision`, how the route was chosen.
 */
export function toExecutionResponse(r: ExecuteResponse) {
  return {
    success: true as const,
    status: r.status,
    provider: r.provider,
    routeKey: r.routeKey,
    creditsCharged: r.creditsCharged,
    ...(r.providerMessageId ? { providerMessageId: r.providerMessageId } : {}),
    data: r.data ?? {},
    ...(r.usage ? { usage: { inputTokens: r.usage.inputTokens, outputTokens: r.usage.outputTokens } } : {}),
    decision: toDecision(r.decision),
  };
}

/**
 * The challenge of a refused execute: the call's price in full (details.requiredCredits), not the
 * shortfall, so what a payer signs does not depend on a balance that may move before it pays.
 */
async function offerPayment(req: Request, res: Response, ledger: LedgerClient, err: unknown): Promise<void> {
  const remote = fromServiceError(err);
  const required = remote.details?.requiredCredits;
  if (remote.code !== "CREDITS_REQUIRED" || typeof required !== "number" || !Number.isSafeInteger(required) || required < 1) return;
  const requirements = await quoteTopUp(ledger, required).catch(() => undefined);
  if (requirements) setChallenge(req, res, requirements, "insufficient credits", `${required} credits for this call, added to the wallet`);
}

export function executeRoutes(executor: ExecutorClient, auth: RequestHandler, ledger?: LedgerClient): Router {
  const routes = Router();
  routes.post("/domains/:domainKey/capabilities/:capabilityId/execute", auth, async (req, res) => {
    const { domainKey, capabilityId } = parseParams(capabilityParams, req);
    const { "Idempotency-Key": idempotencyKey, "Agent-Name": named } = parseHeaders(executeHeaders, req);
    const agentName = agentOfCaller(res.locals.caller, named, "Agent-Name");
    const input = objectBody(req);
    const signature = ledger ? parseHeaders(paymentHeaders, req)["PAYMENT-SIGNATURE"] : undefined;
    let settlement: string | undefined;
    if (ledger && signature !== undefined) {
      try {
        settlement = (await topUp(ledger, res.locals.caller.userId, signature)).settlementJson;
      } catch (err) {
        const refused = refusedPayment(err);
        const credits = refused ? creditsOfPayment(signature) : undefined;
        const requirements = credits ? await quoteTopUp(ledger, credits).catch(() => undefined) : undefined;
        if (refused && requirements)
          setChallenge(req, res, requirements, refused.reason, `${credits} credits for this call, added to the wallet`);
        throw err;
      }
    }
    let result: ExecuteResponse;
    try {
      result = await callExecutor(executor, {
        userId: res.locals.caller.userId,
        // The key's spend policies are checked with the hold.
        keyId: res.locals.caller.keyId,
        domainKey,
        capabilityId,
        input,
        ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
        ...(agentName !== undefined ? { agentName } : {}),
      });
    } catch (err) {
      if (ledger) await offerPayment(req, res, ledger, err);
      throw err;
    }
    // The payment was credited whatever the execute did; its receipt goes with the answer.
    if (settlement) setPaymentResponse(res, settlement);
    res.setHeader("Execution-Id", result.executionId);
    if (result.replayed) res.setHeader("Idempotent-Replayed", "true");
    const body = toExecutionResponse(result);
    res.setHeader(ROUTE_DECISION_HEADER, decisionHeader(body.decision));
    sendJson(res, body);
  });
  return routes;
}
