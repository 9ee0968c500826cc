// ExecutorService/Quote: checks the request envelope (ids, agent name) as Execute does, then plans the
// execution and reserves its price within the caller's deadline. Domain errors are AppErrors and leave
// through the unary adapter with their code and hint.
import { trace } from "@opentelemetry/api";
import { ATTR_DOMAIN_KEY, ATTR_ROUTE_KEY, ATTR_USER_ID, type UnaryHandler } from "@agentic/platform";
import type { QuoteRequest, QuoteResponse } from "@agentic/proto/executor/v1";
import type { Executor } from "../domain/executor";
import { agentNameOf, requireEnvelopeIds } from "./envelope";

export function quoteHandler(executor: Executor): UnaryHandler<QuoteRequest, QuoteResponse> {
  return async (req, ctx) => {
    requireEnvelopeIds(req, "QuoteRequest");
    const agentName = agentNameOf(req);
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
