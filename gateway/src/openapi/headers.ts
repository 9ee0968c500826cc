// Response headers the document describes on several answers.

import type { JsonObject } from "./document";
import { EXECUTION_ID_PATTERN } from "../errors";

/** The Execution-Id header of an error about an execution. */
export const EXECUTION_ID_HEADER: JsonObject = {
  description: "Sent with the errors that carry `executionId` (the same id): the execution to read at GET /executions/{executionId}.",
  schema: { type: "string", pattern: EXECUTION_ID_PATTERN.source },
};

/** The short form of an answer's `decision`. */
export const ROUTE_DECISION_HEADER: JsonObject = {
  description:
    "Extension of this service: the answer's `decision` in short, `served=<routeKey>; tried=<attempts>; skipped=<routes not tried>` (served is empty on a quote).",
  schema: { type: "string", examples: ["served=email.send.sendgrid; tried=2; skipped=1"] },
};

/** Retry-After of a 503: a request shed because the gateway is overloaded, or a backend that is down. */
export const RETRY_AFTER_503: JsonObject = {
  description:
    "Seconds to wait before retrying. With OVERLOADED: 1 to 3, spread so that shed clients do not return together. With UNAVAILABLE " +
    "(a backend is down or did not answer; the hint names it, and the routes that do not need it keep answering): 5, unless the backend said otherwise.",
  schema: { type: "integer", minimum: 1 },
};

/** x402 v2 over HTTP (payments/x402.ts names the headers): the challenge of a 402 and the receipt of a settled payment (base64 JSON each). */
export const PAYMENT_REQUIRED_SCHEMA: JsonObject = {
  description:
    "x402 v2 challenge, base64 of JSON `{x402Version: 2, error, resource: {url, description, mimeType}, accepts: [PaymentRequirements]}`: one offer of scheme `exact` " +
    "(EIP-3009 transferWithAuthorization), in USDC (`asset`, 6 decimals, 1000 atomic units = 1 credit) on `network` (CAIP-2), to the platform's `payTo`, " +
    "for `amount` atomic units, signed to stay valid at most `maxTimeoutSeconds`. Absent when the API takes no payments.",
  schema: { type: "string", contentEncoding: "base64" },
};
export const PAYMENT_RESPONSE_SCHEMA: JsonObject = {
  description:
    "x402 v2 settlement receipt, base64 of the facilitator's JSON `{success, transaction, network, payer, amount}` (also on a refused settlement, with `errorReason`).",
  schema: { type: "string", contentEncoding: "base64" },
};

/** The headers of a 429 (draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit, Structured Field lists). */
export const RATE_LIMIT_HEADERS: JsonObject = {
  "Retry-After": {
    description: "Seconds to wait before retrying: the end of the rate's window (RATE_LIMITED), or 1 (CONCURRENCY_LIMITED).",
    schema: { type: "integer", minimum: 1 },
  },
  "RateLimit-Policy": {
    description:
      'The key\'s quota policies: `"rate";q=20;w=1, "burst";q=20;w=10, "in-flight";q=32;qu="concurrent-requests"` (requests per second; extra requests per 10 s beyond that; requests in flight). ' +
      'Without a valid key: `"unauthenticated";q=60;w=60`.',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'What is left: `"rate";r=0;t=1, "in-flight";r=32` (r = requests left, t = seconds until the window resets).',
    schema: { type: "string" },
  },
};
