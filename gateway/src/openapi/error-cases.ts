// The documented error of each code: its status, words and hint, as the gateway and the services answer it.

import { EXAMPLE_EXECUTION_ID } from "./examples";
import { INVALID_KEY_HINT, KEY_REQUIRED_HINT } from "../middleware/auth";

import { CURSOR_EXPIRED_CASE } from "./catalog-lists";

export interface ErrorCase {
  status: number;
  error: string;
  hint: string;
  /** Set for errors about an execution (body `executionId`, header Execution-Id). */
  executionId?: string;
}

export function errorCases(basePath: string): Record<string, ErrorCase> {
  const contract = `GET ${basePath}/domains/email/capabilities/send/contract`;
  return {
    INVALID_JSON: {
      status: 400,
      error: "Unexpected token 'n', \"{not json\" is not valid JSON",
      hint: "Send a valid JSON object as the request body.",
    },
    INVALID_BODY: {
      status: 400,
      error: "incorrect header check",
      hint: "Send the body as plain (or correctly encoded) UTF-8 JSON with Content-Type: application/json.",
    },
    PAYLOAD_TOO_LARGE: { status: 413, error: "request entity too large", hint: "Send a smaller body." },
    UNSUPPORTED_MEDIA_TYPE: { status: 415, error: "the request body must be JSON", hint: "Send Content-Type: application/json" },
    UNSUPPORTED_ENCODING: { status: 415, error: 'unsupported charset "ISO-8859-1"', hint: "Send the body as UTF-8 JSON." },
    INVALID_INPUT: { status: 400, error: "Field 'to' is required.", hint: `Read ${contract} for the exact fields.` },
    CURSOR_EXPIRED: CURSOR_EXPIRED_CASE,
    AGENTIC_API_KEY_REQUIRED: { status: 401, error: "an API key is required", hint: KEY_REQUIRED_HINT },
    INVALID_API_KEY: { status: 401, error: "the API key is invalid or revoked", hint: INVALID_KEY_HINT },
    CREDITS_REQUIRED: {
      status: 402,
      error: "Insufficient credits: route email.send.resend costs 10 credits, balance is 3.",
      hint: `Fund the wallet; check GET ${basePath}/wallet.`,
    },
    DOMAIN_NOT_FOUND: { status: 404, error: "Domain 'mail' not found.", hint: `List domains with GET ${basePath}/domains.` },
    CAPABILITY_NOT_FOUND: {
      status: 404,
      error: "Capability 'email.sent' not found.",
      hint: `List capabilities with GET ${basePath}/domains/email/capabilities.`,
    },
    CAPABILITY_GATED: {
      status: 409,
      error: "Execution of text.analyze is gated on every route.",
      hint: "Call recommend and follow nextActions; canExecuteNow is false for this capability.",
    },
    UNKNOWN_PROVIDER: {
      status: 400,
      error: 'provider: email.send has no route of provider "mailgun"',
      hint: "Set 'provider' to one of: resend, sendgrid, postmark, agentmail; or omit it to let the router choose.",
    },
    UNKNOWN_ROUTE: {
      status: 400,
      error: 'routeKey: "email.send.mailgun" is not a route of email.send',
      hint: "Set 'routeKey' to one of: email.send.resend, email.send.sendgrid, email.send.postmark; or omit it to let the router choose.",
    },
    PROVIDER_REJECTED_INPUT: {
      status: 400,
      error: "email.send.resend refused the request: HTTP 422 from resend, validation_error. Nothing was charged.",
      hint: `Check the input against ${contract} and the provider's limits, then retry.`,
    },
    IDEMPOTENCY_CONFLICT: {
      status: 409,
      error: "Idempotency-Key 'order-1234' was already used with a different request.",
      hint: "Use a new Idempotency-Key for a different request body or capability.",
    },
    IDEMPOTENCY_IN_PROGRESS: {
      status: 409,
      error: `A request with Idempotency-Key 'order-1234' is still running as execution ${EXAMPLE_EXECUTION_ID} (its lease runs until 2025-06-01T12:01:30.000Z).`,
      hint: `Retry with the same Idempotency-Key to receive its result, or read GET /executions/${EXAMPLE_EXECUTION_ID}.`,
      executionId: EXAMPLE_EXECUTION_ID,
    },
    EXECUTION_INDETERMINATE: {
      status: 409,
      error: `Execution ${EXAMPLE_EXECUTION_ID} (Idempotency-Key 'order-1234') may have reached its provider and its outcome is not known yet. It will not be run again.`,
      hint: `Retry later with the same Idempotency-Key, or read GET /executions/${EXAMPLE_EXECUTION_ID}: it ends as succeeded (charged), failed or outcome_unknown (not charged).`,
      executionId: EXAMPLE_EXECUTION_ID,
    },
    EXECUTION_OUTCOME_UNKNOWN: {
      status: 502,
      error: `Execution ${EXAMPLE_EXECUTION_ID} was interrupted while its provider call was in flight; whether the provider acted is unknown. Nothing was charged.`,
      hint:
        "Check the effect (for example the sent message) before trying again; to try again, send a new Idempotency-Key. " +
        "This answer is the stored result of this Idempotency-Key and is replayed for it: to try again, send a new Idempotency-Key.",
      executionId: EXAMPLE_EXECUTION_ID,
    },
    RESOURCE_NOT_FOUND: {
      status: 404,
      error: 'inboxId: this account has no email.inbox "research-agent@agentmail.to". Nothing was charged.',
      hint: "Set 'inboxId' to the id of a email.inbox this account created, as its execute answered it.",
    },
    EXECUTION_NOT_FOUND: {
      status: 404,
      error: "No execution exe_9ZyXwVuTsRqPoNmLkJiHgF.",
      hint: "Use the executionId an execute answered with; executions are kept 24 hours.",
    },
    PROVIDER_ERROR: {
      status: 502,
      error: "email.send failed on email.send.resend (HTTP 503 from resend). Nothing was charged.",
      hint: "Retry, or send allowFallback: true to let another route take the call.",
    },
    PROVIDER_TIMEOUT: {
      status: 504,
      error: "email.send failed on email.send.resend (no answer from resend within 15000 ms). Nothing was charged.",
      hint: "The provider may still have completed the operation although it did not confirm it; check before retrying.",
    },
    ROUTE_UNAVAILABLE: {
      status: 503,
      error: "No route of email.send can run right now (email.send.resend: ROUTE_UNHEALTHY). Nothing was charged.",
      hint: "Retry shortly; call recommend to see each route's blocking requirements.",
    },
    SETTLEMENT_UNCONFIRMED: {
      status: 503,
      error:
        "Route email.send.resend performed the operation, but its charge of 10 credits could not be recorded. You will most likely not be charged for it.",
      hint: "Check GET /usage before retrying: the operation may already have taken effect.",
    },
    UNAVAILABLE: { status: 503, error: "The ledger is unavailable.", hint: "The ledger is unavailable; retry after 5 s." },
    EXECUTOR_DRAINING: {
      status: 503,
      error: "This executor is shutting down and did not start the execution. Nothing was held or charged.",
      hint: "Send the same request again after the Retry-After seconds (with the same Idempotency-Key, if you sent one).",
    },
    PAYMENT_REQUIRED: {
      status: 402,
      error: "Buying 5000 credits costs 5.000 USD, paid with x402.",
      hint: "Pay the requirements of PAYMENT-REQUIRED and send the same request with PAYMENT-SIGNATURE (any x402 v2 client does this).",
    },
    PAYMENT_INVALID: {
      status: 402,
      error:
        "The payment was refused (invalid_exact_evm_payload_authorization_value_mismatch: value 100000 differs from amount 250000); nothing was credited.",
      hint: "Sign a new payment for the requirements of PAYMENT-REQUIRED.",
    },
    PAYMENT_FAILED: {
      status: 402,
      error: "The payment could not be settled (insufficient_funds); nothing was credited.",
      hint: "Sign a new payment (a new nonce) for the requirements of PAYMENT-REQUIRED.",
    },
    PAYMENT_PENDING: {
      status: 409,
      error: "The payment's settlement is not confirmed yet; nothing is credited until it is.",
      hint: "Send the same PAYMENT-SIGNATURE again after Retry-After: a payment is credited once, never twice.",
    },
    PAYMENT_ALREADY_USED: {
      status: 409,
      error: "This payment was already used for another account.",
      hint: "Sign a new payment for the requirements of PAYMENT-REQUIRED.",
    },
    PAYMENT_UNVERIFIED: {
      status: 503,
      error: "The payment could not be verified now; nothing was written.",
      hint: "Send the same PAYMENT-SIGNATURE again after Retry-After.",
    },
    TOP_UP_UNAVAILABLE: { status: 503, error: "This API takes no payments for credits.", hint: "Ask the operator for credits." },
    TIMEOUT: {
      status: 504,
      error: "A backend service did not answer in time.",
      hint: "A backend service did not answer in time; retry shortly.",
    },
    RATE_LIMITED: {
      status: 429,
      error: "This API key sent more than 20 requests a second (bursts of up to 40).",
      hint: "Retry after the Retry-After seconds, and pace requests by the RateLimit header (r = requests left, t = seconds until they refill).",
    },
    CONCURRENCY_LIMITED: {
      status: 429,
      error: "This API key already has 32 requests in flight, its limit.",
      hint: "Wait for one of your requests to finish before sending another (or retry after the Retry-After seconds).",
    },
    UNCHARGED_FAILURES_LIMITED: {
      status: 429,
      error:
        "Today 50 calls of this account ended without a charge after the provider may have done paid work (timeouts, answers too large to read); 50 a day are allowed.",
      hint: "New calls are refused until 2026-11-29T00:00:00.000Z (the next UTC day). Ask for work a provider can finish in time (smaller pages, lower limits, a shorter wait) so calls succeed.",
    },
    TOO_MANY_OPEN_QUOTES: {
      status: 429,
      error: "Key key_3fQx has 20 open quotes, the most one key may have; each reserves its credits until it is executed or expires.",
      hint: "Execute or let expire an open quote (POST .../execute with its quoteId) before asking for another, or execute without a quote.",
    },
    VENDOR_QUOTA_EXHAUSTED: {
      status: 429,
      error:
        "You have used your share of the vendor quota of finance.fx.rate.openexchangerates until 2026-12-01T00:00:00.000Z (the vendor's plan is shared by every user). Nothing was charged.",
      hint: "Retry after the Retry-After seconds, or execute another route of the capability (call recommend to compare them; allowFallback: true lets the router pick one).",
    },
    OVERLOADED: {
      status: 503,
      error: "The gateway is overloaded and did not start this request.",
      hint: "Retry after the Retry-After seconds, with backoff; nothing was done or charged.",
    },
    SPEND_LIMIT_EXCEEDED: {
      status: 403,
      error:
        "This call (10 credits) exceeds the budget of key key_3fQx (agent alpha): 100 credits, 0 credits left; it resets at 2026-11-28T00:00:00.000Z.",
      hint:
        "The budget of key key_3fQx (agent alpha) has 0 of 100 credits left until 2026-11-28T00:00:00.000Z, when it resets: wait until then, " +
        "choose a cheaper route, or ask the key's owner to raise the limit (npm run keys -- policy).",
    },
    PRICE_ABOVE_MAX: {
      status: 409,
      error:
        "No route of email.send that can run this input costs at most maxPriceCredits 8: the cheapest, email.send.resend, costs 10 credits. Nothing was charged.",
      hint: "PRICE_ABOVE_MAX: raise maxPriceCredits to at least 10, or leave it out.",
    },
    QUOTE_NOT_FOUND: {
      status: 404,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY not found.",
      hint: "Send the quoteId a quote answered for this account.",
    },
    QUOTE_EXPIRED: {
      status: 410,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY has expired; its credits are no longer reserved. Nothing was charged.",
      hint: "Ask for a new quote (POST .../quote) and execute with its quoteId.",
    },
    QUOTE_ALREADY_USED: {
      status: 409,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY was already used by an execution. Nothing was charged.",
      hint: "A quote runs once: ask for a new quote, or send an Idempotency-Key to retry an execution safely.",
    },
    QUOTE_MISMATCH: {
      status: 409,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY was made for another body or capability. Nothing was charged.",
      hint: "Send exactly the body you quoted, plus quoteId; or ask for a new quote for this body.",
    },
    RECOMMENDATION_NOT_FOUND: {
      status: 404,
      error: "Recommendation rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f not found.",
      hint: "Send the recommendationId a recommend answered for this account, or leave it out for a fresh ranking.",
    },
    RECOMMENDATION_EXPIRED: {
      status: 410,
      error: "Recommendation rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f has expired.",
      hint: "Call recommend again and execute with its recommendationId, or leave it out for a fresh ranking.",
    },
    AGENT_NAMES_EXHAUSTED: {
      status: 409,
      error: "This account already has optimization preferences remembered for 1000 agent names, the most it may.",
      hint: "Use one of your existing agent names, or send the request without agentName (nothing is remembered then); a name unused for 30 days is forgotten and frees its place.",
    },
    RECOMMENDATION_STALE: {
      status: 409,
      error: "Recommendation rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f was computed from an older catalog.",
      hint: "Call recommend again: routes or prices changed since.",
    },
  };
}

/** TIMEOUT of an execute: the execution is named, with where to read its outcome (the gateway's executionTimedOut words). */
export const EXECUTE_TIMEOUT_CASE: ErrorCase = {
  status: 504,
  error: `Execution ${EXAMPLE_EXECUTION_ID} did not answer within the gateway's deadline; it may still finish and be charged.`,
  hint:
    `Read GET /executions/${EXAMPLE_EXECUTION_ID} for its outcome before trying again: a retry with the same Idempotency-Key ` +
    "answers that outcome, a retry without one could run it twice.",
  executionId: EXAMPLE_EXECUTION_ID,
};
