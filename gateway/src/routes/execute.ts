// POST /domains/{d}/capabilities/{id}/execute: the paid operation. Reads the Idempotency-Key and
// Agent-Name headers, calls the executor (which validates the body against the contract, holds,
// calls the provider and settles), and renders GenericExecutionResponse without internal fields.
import { Router, type Request, type RequestHandler } from "express";
import type { ExecutorClient } from "@agentic/clients";
import type { ExecuteResponse } from "@agentic/proto/executor/v1";
import { HttpError } from "../errors";
import { objectBody } from "./body";
import type { CapabilityParams } from "./params";

/**
 * A header's single value, or undefined when absent. A repeated header is a 400: which of two keys
 * would apply is ambiguous (Node joins repeated custom headers with ", ", so the distinct values
 * are read). Lengths and characters are checked by the executor.
 */
function singleHeader(req: Request, name: string, hint: string): string | undefined {
  const values = req.headersDistinct[name.toLowerCase()];
  if (values === undefined) return undefined;
  if (values.length > 1) throw new HttpError(400, "INVALID_INPUT", `${name}: must be sent once, not ${values.length} times`, hint);
  return values[0];
}

/**
 * The REST body: GenericExecutionResponse (execution id, replay flag and attempts stay internal), plus
 * `usage`, the tokens the vendor reported, when it did (a per-token route's creditsCharged comes from them).
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
  };
}

export function executeRoutes(executor: ExecutorClient, auth: RequestHandler): Router {
  const routes = Router();
  routes.post<CapabilityParams>("/domains/:domainKey/capabilities/:capabilityId/execute", auth, async (req, res) => {
    const idempotencyKey = singleHeader(req, "Idempotency-Key", "Send one Idempotency-Key of at most 255 characters, e.g. a UUID, or leave it out.");
    const agentName = singleHeader(req, "Agent-Name", "Send the calling agent's name, e.g. alpha_agent, once in Agent-Name, or leave it out.");
    const result = await executor.execute({
      userId: res.locals.caller.userId,
      domainKey: req.params.domainKey,
      capabilityId: req.params.capabilityId,
      input: objectBody(req),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      ...(agentName !== undefined ? { agentName } : {}),
    });
    res.setHeader("Execution-Id", result.executionId);
    if (result.replayed) res.setHeader("Idempotent-Replayed", "true");
    res.json(toExecutionResponse(result));
  });
  return routes;
}
