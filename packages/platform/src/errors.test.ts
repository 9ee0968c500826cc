import { Metadata, status } from "@grpc/grpc-js";
import { AppError, fromServiceError, isDependencyUnavailable, toServiceError } from "./errors";

/** A grpc-js error as a failed downstream call raises it: no code metadata, internal text. */
const rawGrpcError = (code: status) => Object.assign(new Error(`${code} round_robin: connect ECONNREFUSED 127.0.0.1:50054`), { code, details: "connect ECONNREFUSED 127.0.0.1:50054", metadata: new Metadata() });

describe("errors across a gRPC hop", () => {
  it("passes a dependency that cannot be reached on as UNAVAILABLE, never INTERNAL, and never with its address", () => {
    for (const code of [status.UNAVAILABLE, status.DEADLINE_EXCEEDED]) {
      expect(isDependencyUnavailable(rawGrpcError(code))).toBe(true);
      const passedOn = toServiceError(rawGrpcError(code));
      expect(passedOn.code).toBe(status.UNAVAILABLE);
      expect(fromServiceError(passedOn)).toEqual({ grpcCode: status.UNAVAILABLE, code: "UNAVAILABLE", message: "A backend service is unavailable.", hint: expect.any(String), details: undefined });
    }
  });

  it("keeps other errors as they were: AppErrors with their code, anything else INTERNAL", () => {
    expect(isDependencyUnavailable(new AppError(status.UNAVAILABLE, "PROVIDER_ERROR", "m", "h"))).toBe(false);
    expect(toServiceError(new AppError(status.UNAVAILABLE, "PROVIDER_ERROR", "m", "h")).details).toBe("m");
    expect(toServiceError(new Error("boom")).code).toBe(status.INTERNAL);
    expect(toServiceError(rawGrpcError(status.INTERNAL)).code).toBe(status.INTERNAL);
  });

  it("reads a raw grpc-js error without repeating its internal text", () => {
    expect(fromServiceError(rawGrpcError(status.UNAVAILABLE)).message).not.toContain("127.0.0.1");
    expect(fromServiceError(rawGrpcError(status.DEADLINE_EXCEEDED))).toMatchObject({ code: "TIMEOUT", message: "A backend service did not answer in time." });
  });
});
