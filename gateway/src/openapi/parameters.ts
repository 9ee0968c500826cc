// components.parameters: path, query and header parameters the operations refer to.

import type { JsonObject } from "./document";

import { overviewQuery, usageQuery } from "../routes/requests/usage";
import { executionParams } from "../routes/requests/executions";
import { parameterOf } from "./from-zod";
import { catalogListParameters } from "./catalog-lists";
import { recommendLimitParameters } from "./recommend-limit";

export function buildParameters(): Record<string, JsonObject> {
  return {
    domainKey: {
      name: "domainKey",
      in: "path",
      required: true,
      description: "Domain key.",
      schema: { type: "string", minLength: 1 },
      example: "email",
    },
    capabilityId: {
      name: "capabilityId",
      in: "path",
      required: true,
      description:
        "Capability id inside the domain (e.g. `inbox-buy`). The dotted spelling (`inbox.buy`) and the whole capability key " +
        "(`email.inbox.buy`) answer the same resource; the response then names the canonical path in `Content-Location`.",
      schema: { type: "string", minLength: 1 },
      example: "send",
    },
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Makes the execution safe to retry. The first result for a user and key (success or error, once the request passed " +
        "validation) is stored for 24 hours and replayed for a retry with the same body, with no second charge or provider call. " +
        "The same key with a different body answers 409 IDEMPOTENCY_CONFLICT; a retry while the first request still runs waits " +
        "for its result, or answers 409 IDEMPOTENCY_IN_PROGRESS (or EXECUTION_INDETERMINATE once it runs past its lease) with Retry-After " +
        "and the execution's id. An execution abandoned mid-call replays 502 EXECUTION_OUTCOME_UNKNOWN. Bodies rejected with 400 are not stored.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
      example: "order-1234-confirmation",
    },
    PaymentSignature: {
      name: "PAYMENT-SIGNATURE",
      in: "header",
      required: false,
      description:
        "x402 v2 payment, base64 of a JSON PaymentPayload answering a PAYMENT-REQUIRED offer (scheme `exact`: an EIP-3009 authorization signed by the payer). " +
        "The ledger verifies and settles it and credits the wallet once per payment (network, asset, payer, nonce).",
      schema: { type: "string", minLength: 1 },
    },
    AgentName: {
      name: "Agent-Name",
      in: "header",
      required: false,
      description:
        "Name of the calling agent: shown in usage items, and the router applies the optimization preferences this agent last sent to recommend. " +
        "Compared and recorded normalized (Unicode NFKC, case folded, invisible format characters removed): `Alpha` is `alpha`. " +
        "A key issued for one agent acts as that agent whatever is sent (leave it out, or send that name; another is a 400); " +
        "a key requiring agents needs one of its names here (anything else, or none, is a 400).",
      schema: { type: "string", minLength: 1, maxLength: 100 },
      example: "alpha_agent",
    },
    ...catalogListParameters(),
    ...recommendLimitParameters(),
    IfNoneMatch: {
      name: "If-None-Match",
      in: "header",
      required: false,
      description: "ETag of a copy you have; answers 304 with an empty body while it is still current.",
      schema: { type: "string" },
    },
    userId: {
      name: "userId",
      in: "query",
      required: false,
      description: "Reads the wallet of another user. Honoured only outside production; ignored in production.",
      schema: { type: "string", minLength: 1 },
    },
    executionId: parameterOf("executionId", "path", executionParams.shape.executionId),
    limit: parameterOf("limit", "query", usageQuery.shape.limit),
    cursor: parameterOf("cursor", "query", usageQuery.shape.cursor),
    from: parameterOf("from", "query", usageQuery.shape.from),
    to: parameterOf("to", "query", usageQuery.shape.to),
    agentNameFilter: parameterOf("agentName", "query", usageQuery.shape.agentName),
    capabilityKeyFilter: parameterOf("capabilityKey", "query", usageQuery.shape.capabilityKey),
    usageKind: parameterOf("kind", "query", usageQuery.shape.kind),
    overviewLatest: parameterOf("latest", "query", overviewQuery.shape.latest),
  };
}
