// When a failed call is tried again, and after how long. Only failures that a repeat can fix are
// retried: no answer at all, a 5xx, a 429 (the key's rate limit refused the call before anything ran,
// so the same call later is the same call), and an execution still running under the same
// idempotency key. Any other 4xx never is (the request must change). Backoff is exponential with full jitter, never shorter
// than the API's Retry-After, and every wait fits in the call's total deadline.
import { AgenticApiError, NetworkError, TimeoutError } from "./errors";

export interface RetryOptions {
  /** Tries in all, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** First backoff in ms, doubled on each retry (default 250). */
  baseDelayMs?: number;
  /** Longest single backoff in ms (default 5000). */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 5_000 };

/**
 * 5xx answers that are the stored outcome of an execution that ran: the same idempotency key would
 * only replay them, so trying again wastes the deadline (a new key is a new decision, the caller's).
 */
const FINAL_SERVER_CODES = new Set(["PROVIDER_ERROR", "PROVIDER_TIMEOUT", "EXECUTION_OUTCOME_UNKNOWN", "SETTLEMENT_UNCONFIRMED"]);

/** Whether `err` is worth another try of the same request. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof TimeoutError) return false;
  if (err instanceof NetworkError) return true;
  if (!(err instanceof AgenticApiError) || err.status === undefined) return false;
  if (err.status >= 500) return !FINAL_SERVER_CODES.has(err.code);
  if (err.status === 429) return true;
  return err.status === 409 && err.code === "IDEMPOTENCY_IN_PROGRESS";
}

/** Backoff before retry number `retry` (1 for the first retry), in ms. */
export function backoffMs(retry: number, opts: Required<RetryOptions>, err: unknown, random: () => number = Math.random): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.round(random() * ceiling);
  const asked = err instanceof AgenticApiError && err.retryAfter !== undefined ? err.retryAfter * 1000 : 0;
  return Math.max(jittered, asked);
}
