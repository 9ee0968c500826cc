import { Metadata, status } from "@grpc/grpc-js";
import { AppError } from "../errors";
import { ERROR_CODE_METADATA, fromServiceError, isUnansweredCall, toServiceError } from "./status";

/** A grpc-js error as a failed downstream call raises it: no code metadata, internal text. */
const rawGrpcError = (code: status) =>
  Object.assign(new Error(`${code} round_robin: connect ECONNREFUSED 127.0.0.1:50054`), {
    code,
    details: "connect ECONNREFUSED 127.0.0.1:50054",
    metadata: new Metadata(),
  });

describe("errors across a gRPC hop", () => {
  it("passes a dependency that cannot be reached on as UNAVAILABLE, never INTERNAL, and never with its address", () => {
    // Refused or dropped, too late, cancelled, or a stream reset by a service that died mid-call.
    for (const code of [status.UNAVAILABLE, status.DEADLINE_EXCEEDED, status.CANCELLED, status.INTERNAL, status.UNKNOWN]) {
      expect(isUnansweredCall(rawGrpcError(code))).toBe(true);
      const passedOn = toServiceError(rawGrpcError(code));
      expect(passedOn.code).toBe(status.UNAVAILABLE);
      expect(fromServiceError(passedOn)).toMatchObject({
        kind: "unavailable",
        code: "UNAVAILABLE",
        message: "A backend service is unavailable.",
        hint: expect.any(String),
        details: undefined,
      });
    }
  });

  it("keeps other errors as they were: AppErrors with their code, anything else INTERNAL", () => {
    expect(isUnansweredCall(new AppError("unavailable", "PROVIDER_ERROR", "m", "h"))).toBe(false);
    const answered = Object.assign(rawGrpcError(status.INTERNAL), { metadata: new Metadata() });
    answered.metadata.set(ERROR_CODE_METADATA, "INTERNAL");
    expect(toServiceError(new AppError("unavailable", "PROVIDER_ERROR", "m", "h")).details).toBe("m");
    expect(toServiceError(new Error("boom")).code).toBe(status.INTERNAL);
    expect(toServiceError(new Error("boom")).details).toBe("internal error");
    expect(isUnansweredCall(answered)).toBe(false);
    expect(toServiceError(answered).code).toBe(status.INTERNAL);
  });

  it("brings an AppError back across the hop with its kind, code, hint and details", () => {
    const sent = new AppError("failed_precondition", "CREDITS_REQUIRED", "short by 5 credits", "Top up.", { missingCredits: 5 });
    const received = fromServiceError(toServiceError(sent));
    expect(received).toBeInstanceOf(AppError);
    expect(received).toMatchObject({
      kind: "failed_precondition",
      code: "CREDITS_REQUIRED",
      message: "short by 5 credits",
      hint: "Top up.",
    });
    expect(received.details).toEqual({ missingCredits: 5 });
  });

  it("reads a raw grpc-js error without repeating its internal text", () => {
    expect(fromServiceError(rawGrpcError(status.UNAVAILABLE)).message).not.toContain("127.0.0.1");
    expect(fromServiceError(rawGrpcError(status.DEADLINE_EXCEEDED))).toMatchObject({
      kind: "deadline_exceeded",
      code: "TIMEOUT",
      message: "A backend service did not answer in time.",
    });
    expect(fromServiceError(rawGrpcError(status.DATA_LOSS))).toMatchObject({ kind: "internal", code: "INTERNAL" });
  });
});
