// components.responses: every error answer, with an ErrorResponse example per code.

import { INVALID_EXECUTION_ID } from "../routes/requests/executions";
import type { JsonObject } from "./document";
import { JSON_MEDIA, ref } from "./json-schema";
import { EXAMPLE_TRACE_ID } from "./examples";
import { EXECUTE_TIMEOUT_CASE, errorCases, type ErrorCase } from "./error-cases";
import { EXECUTION_ID_HEADER, PAYMENT_REQUIRED_SCHEMA, PAYMENT_RESPONSE_SCHEMA, RATE_LIMIT_HEADERS, RETRY_AFTER_503 } from "./headers";
import { PAYMENT_REQUIRED_HEADER, PAYMENT_RESPONSE_HEADER } from "../payments/x402";

/** A response with an ErrorResponse body and one example per code. */
function errorResponse(description: string, codes: string[], cases: Record<string, ErrorCase>, headers?: JsonObject): JsonObject {
  const exampleMap: JsonObject = {};
  for (const code of codes) {
    const c = cases[code];
    if (!c) throw new Error(`no error case for ${code}`);
    const executionId = c.executionId ? { executionId: c.executionId } : {};
    exampleMap[code] = { value: { success: false, error: c.error, code, hint: c.hint, ...executionId, traceId: EXAMPLE_TRACE_ID } };
  }
  return {
    description: `${description} Codes: ${codes.join(", ")}.`,
    ...(headers ? { headers } : {}),
    content: { [JSON_MEDIA]: { schema: ref("ErrorResponse"), examples: exampleMap } },
  };
}

export function buildErrorResponses(basePath: string): Record<string, JsonObject> {
  const cases = errorCases(basePath);
  return {
    BadRequest: errorResponse(
      "The body is not JSON or cannot be read, a field breaks the contract, or a header that names one thing (Agent-Name) is repeated.",
      ["INVALID_INPUT", "INVALID_JSON", "INVALID_BODY"],
      cases,
    ),
    InvalidQuery: errorResponse("A query parameter is unknown, repeated or out of range (named in `error`).", ["INVALID_INPUT"], cases),
    Unauthorized: errorResponse(
      "Authorization header missing, or the API key is invalid.",
      ["AGENTIC_API_KEY_REQUIRED", "INVALID_API_KEY"],
      cases,
    ),
    CreditsRequired: errorResponse(
      "The wallet balance is below the route price. Nothing was charged. When the API takes x402 payments, PAYMENT-REQUIRED offers the call's full price " +
        "(not the shortfall, so the offer does not depend on a balance that may change); paying it and sending the same request with PAYMENT-SIGNATURE adds " +
        "those credits to the wallet, then runs the call as usual. A refused payment (PAYMENT_INVALID, PAYMENT_FAILED) is a 402 too, with the reason.",
      ["CREDITS_REQUIRED", "PAYMENT_INVALID", "PAYMENT_FAILED"],
      cases,
      { [PAYMENT_REQUIRED_HEADER]: PAYMENT_REQUIRED_SCHEMA },
    ),
    TopUpPaymentRequired: errorResponse(
      "No PAYMENT-SIGNATURE yet (PAYMENT_REQUIRED), or the payment was refused and nothing was credited: it does not match the requirements, " +
        "its signature or validity is wrong, it pays too little, or the facilitator refused to settle it (`error` names the reason). PAYMENT-REQUIRED offers the requirements again.",
      ["PAYMENT_REQUIRED", "PAYMENT_INVALID", "PAYMENT_FAILED"],
      cases,
      { [PAYMENT_REQUIRED_HEADER]: PAYMENT_REQUIRED_SCHEMA, [PAYMENT_RESPONSE_HEADER]: PAYMENT_RESPONSE_SCHEMA },
    ),
    TopUpConflict: errorResponse(
      "PAYMENT_PENDING: the payment was sent for settlement and its outcome is not known yet; nothing is credited until it is, and the same PAYMENT-SIGNATURE sent again " +
        "after Retry-After answers the outcome (credited once). PAYMENT_ALREADY_USED: the payment was credited to another account.",
      ["PAYMENT_PENDING", "PAYMENT_ALREADY_USED"],
      cases,
      {
        "Retry-After": {
          description: "Sent with PAYMENT_PENDING: seconds before presenting the same payment again.",
          schema: { type: "integer", minimum: 1 },
        },
      },
    ),
    TopUpUnavailable: errorResponse(
      "The API takes no payments (TOP_UP_UNAVAILABLE), the facilitator could not verify the payment now (PAYMENT_UNVERIFIED, with Retry-After; nothing was written), or a backing service is unavailable.",
      ["TOP_UP_UNAVAILABLE", "PAYMENT_UNVERIFIED", "UNAVAILABLE", "OVERLOADED"],
      cases,
      { "Retry-After": { description: "Seconds before trying again.", schema: { type: "integer", minimum: 1 } } },
    ),
    DomainNotFound: errorResponse("The domain does not exist.", ["DOMAIN_NOT_FOUND"], cases),
    CapabilityNotFound: errorResponse("The domain or the capability does not exist.", ["DOMAIN_NOT_FOUND", "CAPABILITY_NOT_FOUND"], cases),
    ExecuteBadRequest: errorResponse(
      "The body is not JSON, cannot be read or breaks the contract's execute block (the field is named in `hint`), a header is repeated or malformed, a pin names no route of the capability, or the provider refused the input. Nothing was charged.",
      ["INVALID_INPUT", "INVALID_JSON", "INVALID_BODY", "UNKNOWN_PROVIDER", "UNKNOWN_ROUTE", "PROVIDER_REJECTED_INPUT"],
      cases,
    ),
    SpendLimitExceeded: errorResponse(
      "A spend policy of the API key, or of the agent named in Agent-Name (or recommend's `agentName`), refused the call: its budget or a capability cap for the period " +
        "is spent (`error` names the limit and what remains, `hint` when it resets). Nothing was held or charged and no provider was called; paying more would not help.",
      ["SPEND_LIMIT_EXCEEDED"],
      cases,
    ),
    ExecuteConflict: errorResponse(
      "Execution is gated for this capability or route (it may still be recommendable), the Idempotency-Key was used with a different request, " +
        "or the key's execution has not ended: IDEMPOTENCY_IN_PROGRESS while it runs, EXECUTION_INDETERMINATE once it runs past its lease " +
        "(the provider may have been reached and the outcome is being reconciled; it is never run again and its hold stays until it ends). " +
        "PRICE_ABOVE_MAX: no route that can run costs at most `maxPriceCredits` (the hint names the cheapest price), or the route costs more than the " +
        "API key's spend policy allows for one execution. QUOTE_ALREADY_USED: the quote already ran; " +
        "QUOTE_MISMATCH: the body is not the one quoted. RECOMMENDATION_STALE: the catalog changed since the recommendation. " +
        "Nothing was charged for this request. The last two carry `executionId` and Retry-After: retry with the same Idempotency-Key after it, " +
        "or read GET /executions/{executionId}.",
      [
        "CAPABILITY_GATED",
        "IDEMPOTENCY_CONFLICT",
        "IDEMPOTENCY_IN_PROGRESS",
        "EXECUTION_INDETERMINATE",
        "PRICE_ABOVE_MAX",
        "QUOTE_ALREADY_USED",
        "QUOTE_MISMATCH",
        "RECOMMENDATION_STALE",
      ],
      cases,
      {
        "Retry-After": {
          description:
            "Seconds to wait before retrying with the same Idempotency-Key or reading the execution: sent with IDEMPOTENCY_IN_PROGRESS (a few seconds) " +
            "and EXECUTION_INDETERMINATE (longer: its outcome comes from reconciliation, not from a prompt answer).",
          schema: { type: "integer", minimum: 0 },
        },
        "Execution-Id": EXECUTION_ID_HEADER,
      },
    ),
    ExecuteUnavailable: errorResponse(
      "A backing service is unavailable (UNAVAILABLE, with Retry-After; the hint names it), no route can run right now, a performed operation's charge could not be recorded (see the message), every executor asked was shutting down and none started it (EXECUTOR_DRAINING, with Retry-After: nothing held or charged), or the gateway is overloaded and did not start the request (OVERLOADED, with Retry-After).",
      ["UNAVAILABLE", "ROUTE_UNAVAILABLE", "SETTLEMENT_UNCONFIRMED", "EXECUTOR_DRAINING", "OVERLOADED"],
      cases,
      { "Retry-After": RETRY_AFTER_503 },
    ),
    ProviderError: errorResponse(
      "PROVIDER_ERROR: the provider failed and no fallback route was left; the hold was released. " +
        "EXECUTION_OUTCOME_UNKNOWN (replayed for its Idempotency-Key, with `executionId`): the execution was abandoned mid-call; " +
        "nothing was charged, but the provider may have acted, so check the effect before trying again with a new Idempotency-Key.",
      ["PROVIDER_ERROR", "EXECUTION_OUTCOME_UNKNOWN"],
      cases,
      { "Execution-Id": EXECUTION_ID_HEADER },
    ),
    ExecuteTimeout: errorResponse(
      "PROVIDER_TIMEOUT: the provider did not answer in time; the hold was released. TIMEOUT: the executor did not answer within the " +
        "gateway's deadline (which exceeds the executor's longest execution, so this means it was unreachable or stalled), or the " +
        "connection to it dropped after the call reached it; the execution may still end charged. Its id is in `executionId` and the Execution-Id header: read GET /executions/{executionId} for its outcome " +
        "before trying again (a retry with the same Idempotency-Key answers that outcome; one without a key could run it twice).",
      ["PROVIDER_TIMEOUT", "TIMEOUT"],
      { ...cases, TIMEOUT: EXECUTE_TIMEOUT_CASE },
      { "Execution-Id": EXECUTION_ID_HEADER },
    ),
    ExecuteNotFound: errorResponse(
      "The domain or the capability does not exist, or the body names a resource (an `inboxId`) this account does not own; " +
        "another account's resource answers exactly as one that does not exist; or the `quoteId` or `recommendationId` is not this account's. Nothing was held and no provider was called.",
      ["DOMAIN_NOT_FOUND", "CAPABILITY_NOT_FOUND", "RESOURCE_NOT_FOUND", "QUOTE_NOT_FOUND", "RECOMMENDATION_NOT_FOUND"],
      cases,
    ),
    AgentNamesExhausted: errorResponse(
      "`optimizationPreferences` sent for an agent name this account has none remembered for, when it already has the most it may " +
        "(1000 by default): nothing was remembered. Known names keep working, and a request without `agentName` remembers nothing.",
      ["AGENT_NAMES_EXHAUSTED"],
      cases,
    ),
    CursorExpired: errorResponse(
      "The cursor was given before the catalog changed: a page of the new catalog would skip or repeat items. Start the walk again from the first page.",
      ["CURSOR_EXPIRED"],
      cases,
    ),
    ExecuteGone: errorResponse(
      "The quote (`quoteId`) or the stored recommendation (`recommendationId`) has expired; nothing was charged. Ask for a new one.",
      ["QUOTE_EXPIRED", "RECOMMENDATION_EXPIRED"],
      cases,
    ),
    ExecutionNotFound: errorResponse(
      "The caller has no execution with this id (another user's executions are not found either).",
      ["EXECUTION_NOT_FOUND"],
      cases,
    ),
    InvalidExecutionId: errorResponse("The execution id is malformed.", ["INVALID_INPUT"], {
      INVALID_INPUT: {
        status: 400,
        error: `executionId: ${INVALID_EXECUTION_ID.problem}`,
        hint: INVALID_EXECUTION_ID.hint,
      },
    }),
    Unavailable: errorResponse(
      "A backing service is unavailable (UNAVAILABLE, with Retry-After; the hint names it): retry after it. OVERLOADED: the gateway is saturated and refused the request at once without starting it (Retry-After says when to come back).",
      ["UNAVAILABLE", "OVERLOADED"],
      cases,
      { "Retry-After": RETRY_AFTER_503 },
    ),
    TooManyRequests: errorResponse(
      "The API key is over its request rate (RATE_LIMITED) or already has its most requests in flight (CONCURRENCY_LIMITED); requests without a valid key " +
        "are also limited per client address (RATE_LIMITED). Nothing was done or charged. RateLimit-Policy and RateLimit are sent on every answer to an authenticated request, not only on 429.",
      ["RATE_LIMITED", "CONCURRENCY_LIMITED"],
      cases,
      RATE_LIMIT_HEADERS,
    ),
    ExecuteTooManyRequests: errorResponse(
      "The API key is over its request rate (RATE_LIMITED) or already has its most requests in flight (CONCURRENCY_LIMITED), as on every authenticated operation; or " +
        "VENDOR_QUOTA_EXHAUSTED: the route runs on a vendor plan with a fixed quota every user shares, and the caller's share of it (or the whole quota) is spent " +
        "until the window resets (Retry-After); another route of the capability may still run. Or UNCHARGED_FAILURES_LIMITED: today the account had its " +
        "allowance of calls that made a provider work on the platform's key and ended without a charge (timeouts, answers too large to read, 50 a UTC day by " +
        "default), so calls are refused until the next UTC day (Retry-After, `details.resetsAt`). Nothing was done or charged.",
      ["RATE_LIMITED", "CONCURRENCY_LIMITED", "VENDOR_QUOTA_EXHAUSTED", "UNCHARGED_FAILURES_LIMITED"],
      cases,
      RATE_LIMIT_HEADERS,
    ),
    QuoteTooManyRequests: errorResponse(
      "The API key is over its request rate (RATE_LIMITED) or has its most requests in flight (CONCURRENCY_LIMITED), or already has its most open quotes " +
        "(TOO_MANY_OPEN_QUOTES: 20 per key, each reserving its credits until it is executed or expires). Nothing was reserved or charged.",
      ["RATE_LIMITED", "CONCURRENCY_LIMITED", "TOO_MANY_OPEN_QUOTES"],
      cases,
      RATE_LIMIT_HEADERS,
    ),
    Timeout: errorResponse("A backing service did not answer within the gateway's deadline; retry shortly.", ["TIMEOUT"], cases),
    PayloadTooLarge: errorResponse("The body is larger than the gateway accepts.", ["PAYLOAD_TOO_LARGE"], cases),
    UnsupportedMediaType: errorResponse(
      "The body is not sent as JSON (a Content-Type other than application/json), or not in UTF-8.",
      ["UNSUPPORTED_MEDIA_TYPE", "UNSUPPORTED_ENCODING"],
      cases,
    ),
  };
}

export const responseRef = (name: string): JsonObject => ({ $ref: `#/components/responses/${name}` });
