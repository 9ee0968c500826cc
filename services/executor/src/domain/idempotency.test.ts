import { AppError } from "@agentic/platform";
import { status } from "@grpc/grpc-js";
import { decodeOutcome, encodeOutcome, vendorIdempotencyKey } from "./idempotency";

describe("stored idempotent outcomes", () => {
  it("round-trips a response through the ledger's record, marked as a replay", () => {
    const response = {
      success: true,
      status: "sent",
      provider: "resend",
      routeKey: "email.send.resend",
      creditsCharged: 10,
      providerMessageId: "m1",
      data: { messageId: "m1", nested: { list: [1, "two", null] } },
      executionId: "exe_1",
      replayed: false,
      attempts: [{ attemptId: "att_1", routeKey: "email.send.resend", provider: "resend", ok: true, errorKind: "", heldCredits: 10, latencyMs: 12.5 }],
    };
    const record = encodeOutcome({ ok: true, response });
    expect(record.httpStatus).toBe(200);
    expect(decodeOutcome(JSON.parse(JSON.stringify(record)))).toEqual({ ok: true, response: { ...response, replayed: true } });
  });

  it("round-trips an error with its gRPC status, code, hint and details, recording the HTTP status it renders as", () => {
    const error = new AppError(status.UNAVAILABLE, "PROVIDER_ERROR", "email.send failed", "Retry later.", { attempts: [{ routeKey: "email.send.resend" }] });
    const record = encodeOutcome({ ok: false, error });
    expect(record.httpStatus).toBe(502);
    expect(encodeOutcome({ ok: false, error: new AppError(status.FAILED_PRECONDITION, "CREDITS_REQUIRED", "short", "fund") }).httpStatus).toBe(402);
    const decoded = decodeOutcome(record);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.error).toMatchObject({ grpcCode: status.UNAVAILABLE, code: "PROVIDER_ERROR", message: "email.send failed", hint: "Retry later.", details: error.details });
  });

  it("derives vendor idempotency keys per user, so equal client keys of two users never collide", () => {
    expect(vendorIdempotencyKey("u1", "k")).toBe(vendorIdempotencyKey("u1", "k"));
    expect(vendorIdempotencyKey("u1", "k")).not.toBe(vendorIdempotencyKey("u2", "k"));
    expect(vendorIdempotencyKey("u1", "k")).toMatch(/^idem_[A-Za-z0-9_-]{32}$/);
  });
});
