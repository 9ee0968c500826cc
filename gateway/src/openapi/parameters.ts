// components.parameters: path, query and header parameters the operations refer to.

import type { JsonObject } from "./document";

import { overviewQuery, usageQuery } from "../routes/requests/usage";
import { recommendQuery } from "../routes/requests/recommend-query";
import { walletQuery } from "../routes/requests/wallet";
import { executionParams } from "../routes/requests/executions";
import { capabilityParams } from "../routes/requests/capability";
import { agentHeaders, conditionalHeaders, executeHeaders, paymentHeaders } from "../routes/requests/headers";
import { parameterOf } from "./from-zod";
import { catalogListParameters } from "./catalog-lists";

export function buildParameters(): Record<string, JsonObject> {
  return {
    domainKey: parameterOf("domainKey", "path", capabilityParams.shape.domainKey),
    capabilityId: parameterOf("capabilityId", "path", capabilityParams.shape.capabilityId),
    IdempotencyKey: parameterOf("Idempotency-Key", "header", executeHeaders.shape["Idempotency-Key"]),
    PaymentSignature: parameterOf("PAYMENT-SIGNATURE", "header", paymentHeaders.shape["PAYMENT-SIGNATURE"]),
    AgentName: parameterOf("Agent-Name", "header", agentHeaders.shape["Agent-Name"]),
    ...catalogListParameters(),
    candidateLimit: parameterOf("limit", "query", recommendQuery.shape.limit),
    IfNoneMatch: parameterOf("If-None-Match", "header", conditionalHeaders.shape["If-None-Match"]),
    userId: parameterOf("userId", "query", walletQuery.shape.userId),
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
