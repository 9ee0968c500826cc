// ExecutorService/Execute: checks the request envelope (ids, Idempotency-Key, agent name), runs the
// execution within the caller's deadline, and tags the active span. Domain errors are AppErrors and
// leave through the unary adapter with their code and hint.
import { trace } from "@opentelemetry/api";
import {
  ATTR_CAPABILITY_KEY,
  ATTR_DOMAIN_KEY,
  ATTR_PROVIDER_KEY,
  ATTR_ROUTE_KEY,
  ATTR_USER_ID,
  ID_PREFIXES,
  invalidArgument,
  isIdempotencyKey,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  type UnaryHandler,
} from "@agentic/platform";
import type { ExecuteRequest, ExecuteResponse } from "@agentic/proto/executor/v1";
import type { Executor } from "../domain/executor";
import { agentNameOf, requireEnvelopeIds } from "./envelope";

/** An execution id as the platform makes them (newId("execution")): what a caller-chosen id must be. */
const EXECUTION_ID = new RegExp(`^${ID_PREFIXES.execution}_[0-9A-Za-z]{22}$`);

export function executeHandler(executor: Executor): UnaryHandler<ExecuteRequest, ExecuteResponse> {
  return async (req, ctx) => {
    requireEnvelopeIds(req, "ExecuteRequest");
    const key = req.idempotencyKey;
    if (key !== undefined && !isIdempotencyKey(key)) {
      throw invalidArgument(
        "INVALID_INPUT",
        `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
        "Send a fresh random key per operation, e.g. a UUID, in the Idempotency-Key header.",
        { field: "Idempotency-Key" },
      );
    }
    const agentName = agentNameOf(req);
    if (req.executionId !== undefined && !EXECUTION_ID.test(req.executionId)) {
      throw invalidArgument(
        "INVALID_INPUT",
        "executionId must be exe_ followed by 22 letters and digits",
        "Leave executionId out, or set a fresh one (newId of kind execution) on the ExecuteRequest.",
        { field: "executionId" },
      );
    }
    const span = trace.getActiveSpan();
    span?.setAttributes({ [ATTR_USER_ID]: req.userId, [ATTR_DOMAIN_KEY]: req.domainKey });
    const response = await executor.execute(
      {
        userId: req.userId,
        domainKey: req.domainKey,
        capabilityId: req.capabilityId,
        body: req.input ?? {},
        ...(key !== undefined ? { idempotencyKey: key } : {}),
        ...(agentName ? { agentName } : {}),
        ...(req.keyId ? { keyId: req.keyId } : {}),
        ...(req.executionId !== undefined ? { executionId: req.executionId } : {}),
      },
      { remainingMs: ctx.remainingMs },
    );
    span?.setAttributes({
      [ATTR_CAPABILITY_KEY]: `${req.domainKey}.${req.capabilityId}`,
      [ATTR_ROUTE_KEY]: response.routeKey,
      [ATTR_PROVIDER_KEY]: response.provider,
    });
    return response;
  };
}
