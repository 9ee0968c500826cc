import { errorFromResponse, NetworkError, TimeoutError } from "./errors";
import { backoffMs, DEFAULT_RETRY, isRetryable } from "./retry";

const answer = (status: number, code: string, headers: Record<string, string> = {}) =>
  errorFromResponse(status, { error: "x", code }, new Headers(headers));

describe("isRetryable", () => {
  it("retries no answer, a 5xx, a rate limit's 429 and an execution still in progress", () => {
    expect(isRetryable(new NetworkError("cut", { code: "NETWORK_ERROR" }))).toBe(true);
    expect(isRetryable(answer(503, "UNAVAILABLE"))).toBe(true);
    expect(isRetryable(answer(504, "TIMEOUT"))).toBe(true);
    expect(isRetryable(answer(500, "HTTP_500"))).toBe(true);
    expect(isRetryable(answer(409, "IDEMPOTENCY_IN_PROGRESS"))).toBe(true);
    expect(isRetryable(answer(429, "RATE_LIMITED"))).toBe(true);
  });

  it("never retries another 4xx, the call's own deadline, or a 5xx that is an execution's stored outcome", () => {
    for (const [status, code] of [
      [400, "INVALID_INPUT"],
      [401, "INVALID_API_KEY"],
      [402, "CREDITS_REQUIRED"],
      [404, "CAPABILITY_NOT_FOUND"],
      [409, "IDEMPOTENCY_CONFLICT"],
      [409, "EXECUTION_INDETERMINATE"],
      [502, "PROVIDER_ERROR"],
      [502, "EXECUTION_OUTCOME_UNKNOWN"],
      [504, "PROVIDER_TIMEOUT"],
    ] as const)
      expect({ status, code, retry: isRetryable(answer(status, code)) }).toEqual({ status, code, retry: false });
    expect(isRetryable(new TimeoutError("late", { code: "CLIENT_TIMEOUT" }))).toBe(false);
    expect(isRetryable(new Error("bug"))).toBe(false);
  });
});

describe("backoffMs", () => {
  it("grows exponentially with full jitter, capped, and never below Retry-After", () => {
    const top = () => 1;
    expect([1, 2, 3, 10].map((n) => backoffMs(n, DEFAULT_RETRY, undefined, top))).toEqual([250, 500, 1000, 5000]);
    expect(backoffMs(3, DEFAULT_RETRY, undefined, () => 0)).toBe(0);
    expect(backoffMs(1, DEFAULT_RETRY, answer(409, "IDEMPOTENCY_IN_PROGRESS", { "retry-after": "2" }), () => 0)).toBe(2000);
  });
});
