// ExecutorService/Quote: checks the request envelope (ids, agent name) as Execute does, then plans the
// execution and reserves its price within the caller's deadline. Domain errors are AppErrors and leave
// through the unary adapter with their code and hint.
import { trace } from "@opentelemetry/api";
import { ATTR_DOMAIN_KEY, ATTR_ROUTE_KEY, ATTR_USER_ID, invalidArgument, type UnaryHandler } from "@agentic/platform";
import type { QuoteRequest, QuoteResponse } from "@agentic/proto/executor/v1";
import type { Executor } from "../domain/executor";
import { MAX_AGENT_NAME_LENGTH } from "./execute";

export function quoteHandler(executor: Executor): UnaryHandler<QuoteRequest, QuoteResponse> {
  return async (req, ctx) => {
    for (const field of ["userId", "domainKey", "capabilityId"] as const) {
      if (!req[field]) throw invalidArgument("INVALID_INPUT", `${field} is required`, `Set ${field} on the QuoteRequest.`, { field });
    }
    const agentName = req.agentName?.trim();
    if (req.agentName !== undefined && (!agentName || agentName.length > MAX_AGENT_NAME_LENGTH)) {
      throw invalidArgument(
        "INVALID_INPUT",
        `agent name must be 1 to ${MAX_AGENT_NAME_LENGTH} characters`,
        "Send a short agent name, e.g. alpha_agent, or leave it out.",
        { field: "agentName" },
      );
    }
    const span = trace.getActiveSpan();
    span?.setAttributes({ [ATTR_USER_ID]: req.userId, [ATTR_DOMAIN_KEY]: req.domainKey });
    const response = await executor.quote(
      {
        userId: req.userId,
        domainKey: req.domainKey,
        capabilityId: req.capabilityId,
        body: req.input ?? {},
        ...(agentName ? { agentName } : {}),
        ...(req.keyId ? { keyId: req.keyId } : {}),
      },
      { remainingMs: ctx.remainingMs },
    );
    span?.setAttributes({ [ATTR_ROUTE_KEY]: response.routeKey });
    return response;
  };
}
