// The one table from an error's kind (plus its public code) to the HTTP status an API client sees:
// used by the gateway to answer, and by the executor to record idempotent results as answered.
import type { ErrorKind } from "./errors";

const KIND_TO_HTTP: Partial<Record<ErrorKind, number>> = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  aborted: 409,
  failed_precondition: 409,
  resource_exhausted: 429,
  cancelled: 499,
  unimplemented: 501,
  unavailable: 503,
  deadline_exceeded: 504,
};

/** Public codes whose HTTP status is more precise than their kind gives. */
const CODE_TO_HTTP: Record<string, number> = {
  CREDITS_REQUIRED: 402,
  PROVIDER_ERROR: 502,
  EXECUTION_OUTCOME_UNKNOWN: 502,
  PROVIDER_TIMEOUT: 504,
  // Top-ups: a refused payment is still "payment required"; a facilitator that cannot be reached, or a
  // ledger that takes no payments, is the service being unavailable.
  PAYMENT_INVALID: 402,
  PAYMENT_FAILED: 402,
  PAYMENT_UNVERIFIED: 503,
  TOP_UP_UNAVAILABLE: 503,
  // A stored recommendation past its lifetime is gone for good (failed_precondition over gRPC); ask again.
  RECOMMENDATION_EXPIRED: 410,
  // A quote past its lifetime no longer reserves anything (failed_precondition over gRPC); quote again.
  QUOTE_EXPIRED: 410,
  // A key's (or agent's) spend policy refused the hold: paying more would not help, the key may not spend it.
  SPEND_LIMIT_EXCEEDED: 403,
};

/** HTTP status of an error of `kind` with public `code` (500 when unmapped). */
export function httpStatusOf(kind: ErrorKind, code: string): number {
  return CODE_TO_HTTP[code] ?? KIND_TO_HTTP[kind] ?? 500;
}
