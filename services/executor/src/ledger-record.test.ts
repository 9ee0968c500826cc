import { AppError } from "@agentic/platform";
import { creditsRequired, providerTimeout } from "./domain/errors";
import { REPLAY_NOTE, replayedError } from "./domain/idempotency";
import { decodeOutcome, encodeOutcome } from "./ledger-record";

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
      attempts: [
        {
          attemptId: "att_1",
          routeKey: "email.send.resend",
          provider: "resend",
          ok: true,
          errorKind: "",
          heldCredits: 10,
          latencyMs: 12.5,
        },
      ],
    };
    const record = encodeOutcome({ ok: true, response });
    expect(record.httpStatus).toBe(200);
    expect(decodeOutcome(JSON.parse(JSON.stringify(record)))).toEqual({ ok: true, response: { ...response, replayed: true } });
  });

  it("round-trips an error with its kind, code, hint and details, recording the HTTP status it renders as", () => {
    const error = new AppError("unavailable", "PROVIDER_ERROR", "email.send failed", "Retry later.", {
      attempts: [{ routeKey: "email.send.resend" }],
    });
    const record = encodeOutcome({ ok: false, error });
    expect(record.httpStatus).toBe(502);
    expect(encodeOutcome({ ok: false, error: new AppError("failed_precondition", "CREDITS_REQUIRED", "short", "fund") }).httpStatus).toBe(
      402,
    );
    const decoded = decodeOutcome(record);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.error).toMatchObject({
      kind: "unavailable",
      code: "PROVIDER_ERROR",
      message: "email.send failed",
      hint: expect.stringMatching(/^Retry later\. /),
      details: error.details,
    });
  });

  it("replays an error with its advice, plus that it is the key's stored result and a new key is needed; details say replayed", () => {
    // "Retry shortly" under the same key would only replay the same error: the hint must say so.
    const replay = (error: ReturnType<typeof creditsRequired>) => {
      const decoded = decodeOutcome(JSON.parse(JSON.stringify(encodeOutcome({ ok: false, error }))));
      if (decoded.ok) throw new Error("expected an error");
      return decoded.error;
    };
    const short = creditsRequired("email.send.resend", 10, 9);
    expect(replay(short)).toMatchObject({
      code: "CREDITS_REQUIRED",
      message: short.message,
      hint: `${short.hint} ${REPLAY_NOTE}`,
      details: { routeKey: "email.send.resend", requiredCredits: 10, balanceCredits: 9, replayed: true },
    });
    expect(REPLAY_NOTE).toMatch(/stored result of this Idempotency-Key/);
    expect(REPLAY_NOTE).toMatch(/new Idempotency-Key/);
    const timeout = replay(providerTimeout("email.send failed on email.send.resend (timeout).", "Retry with a longer client timeout", {}));
    expect(timeout.hint).toBe(`Retry with a longer client timeout. ${REPLAY_NOTE}`);
    // The first answer keeps its hint: only the replay is rewritten, and only once.
    expect(short.hint).not.toContain("Idempotency-Key");
    expect(replayedError(replayedError(short))).toMatchObject({ hint: `${short.hint} ${REPLAY_NOTE}` });
  });

  it("reads a record written before errors carried a kind: its gRPC status gives the kind", () => {
    const legacy = {
      httpStatus: 402,
      body: { success: false, error: "Route r costs 10 credits.", code: "CREDITS_REQUIRED", hint: "Add credits.", grpcStatus: 9 },
    };
    const decoded = decodeOutcome(JSON.parse(JSON.stringify(legacy)));
    expect(!decoded.ok && decoded.error).toMatchObject({
      kind: "failed_precondition",
      code: "CREDITS_REQUIRED",
      message: "Route r costs 10 credits.",
      hint: `Add credits. ${REPLAY_NOTE}`,
      details: { replayed: true },
    });
    const unknown = decodeOutcome({ httpStatus: 500, body: { success: false, code: "INTERNAL", error: "internal error" } });
    expect(!unknown.ok && unknown.error.kind).toBe("internal");
  });
});
