import type { ErrorKind } from "./errors";
import { httpStatusOf } from "./http-status";

describe("httpStatusOf", () => {
  it.each<[ErrorKind, string, number]>([
    ["invalid_argument", "INVALID_INPUT", 400],
    ["unauthenticated", "INVALID_API_KEY", 401],
    ["not_found", "CAPABILITY_NOT_FOUND", 404],
    ["failed_precondition", "CAPABILITY_GATED", 409],
    ["failed_precondition", "CREDITS_REQUIRED", 402],
    ["failed_precondition", "SPEND_LIMIT_EXCEEDED", 403],
    ["failed_precondition", "RECOMMENDATION_EXPIRED", 410],
    ["failed_precondition", "RECOMMENDATION_STALE", 409],
    ["failed_precondition", "QUOTE_EXPIRED", 410],
    ["unavailable", "PROVIDER_ERROR", 502],
    ["deadline_exceeded", "PROVIDER_TIMEOUT", 504],
    ["unavailable", "UNAVAILABLE", 503],
    ["internal", "INTERNAL", 500],
  ])("%s with %s → %i", (kind, code, http) => {
    expect(httpStatusOf(kind, code)).toBe(http);
  });
});
