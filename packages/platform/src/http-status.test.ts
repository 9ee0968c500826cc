import { status } from "@grpc/grpc-js";
import { httpStatusOf } from "./http-status";

describe("httpStatusOf", () => {
  it.each([
    [status.INVALID_ARGUMENT, "INVALID_INPUT", 400],
    [status.UNAUTHENTICATED, "INVALID_API_KEY", 401],
    [status.NOT_FOUND, "CAPABILITY_NOT_FOUND", 404],
    [status.FAILED_PRECONDITION, "CAPABILITY_GATED", 409],
    [status.FAILED_PRECONDITION, "CREDITS_REQUIRED", 402],
    [status.UNAVAILABLE, "PROVIDER_ERROR", 502],
    [status.DEADLINE_EXCEEDED, "PROVIDER_TIMEOUT", 504],
    [status.UNAVAILABLE, "UNAVAILABLE", 503],
    [status.INTERNAL, "INTERNAL", 500],
    [status.DATA_LOSS, "ANYTHING", 500],
  ])("gRPC %i with %s → %i", (grpc, code, http) => {
    expect(httpStatusOf(grpc, code)).toBe(http);
  });
});
