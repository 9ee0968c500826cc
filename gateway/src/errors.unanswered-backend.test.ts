// What a client reads when a backend call got no answer: grpc-js raises the error itself (no code of
// ours in its metadata) when a connection is refused or dropped, a stream is reset by a backend that
// died mid-call, or the deadline passes. None of these is a 500: each is 503 UNAVAILABLE with
// Retry-After, but a deadline, which may have passed after the work was done, stays 504 TIMEOUT.
import { Metadata, status as GrpcStatus } from "@grpc/grpc-js";
import { AppError, toServiceError } from "@agentic/platform";
import { BACKEND_RETRY_AFTER_SECONDS, backendUnavailable, toErrorResponse } from "./errors";

/** An error shaped as grpc-js raises it for a call that got no answer. */
const raisedByGrpc = (code: GrpcStatus, details: string) =>
  Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() });

describe("a backend call that got no answer", () => {
  it.each([
    [GrpcStatus.UNAVAILABLE, "No connection established. Last error: connect ECONNREFUSED 10.0.0.7:50054"],
    [GrpcStatus.UNAVAILABLE, "Connection dropped"],
    [GrpcStatus.CANCELLED, "Call cancelled"],
    [GrpcStatus.INTERNAL, "Received RST_STREAM with code 2 triggered by internal client error: Protocol error"],
    [GrpcStatus.UNKNOWN, "Unknown error"],
  ])("grpc-js status %s (%s) → 503 UNAVAILABLE with Retry-After, without the internal text", (code, details) => {
    const answer = toErrorResponse(raisedByGrpc(code, details));
    expect(answer.status).toBe(503);
    expect(answer.headers["Retry-After"]).toBe(String(BACKEND_RETRY_AFTER_SECONDS));
    expect(answer.body).toMatchObject({
      code: "UNAVAILABLE",
      hint: expect.stringContaining(`retry after ${BACKEND_RETRY_AFTER_SECONDS} s`),
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/10\.0\.0\.7|RST_STREAM|ECONNREFUSED/);
  });

  it("a deadline stays 504 TIMEOUT: the call may have done its work", () => {
    const answer = toErrorResponse(raisedByGrpc(GrpcStatus.DEADLINE_EXCEEDED, "Deadline exceeded after 30.001s"));
    expect([answer.status, answer.body.code]).toEqual([504, "TIMEOUT"]);
  });

  it("names the backend that is down, and says when to retry", () => {
    const answer = toErrorResponse(backendUnavailable(["ledger"]));
    expect(answer).toMatchObject({
      status: 503,
      headers: { "Retry-After": String(BACKEND_RETRY_AFTER_SECONDS) },
      body: {
        code: "UNAVAILABLE",
        error: "The ledger is unavailable.",
        hint: `The ledger is unavailable; retry after ${BACKEND_RETRY_AFTER_SECONDS} s.`,
      },
    });
    expect(toErrorResponse(backendUnavailable(["ledger", "router"])).body.hint).toMatch(/^The ledger and the router are unavailable/);
  });

  it("a backend's own UNAVAILABLE (its dependency down) gets Retry-After too; its own Retry-After is kept", () => {
    const own = new AppError("unavailable", "UNAVAILABLE", "The ledger did not answer; nothing was charged.", "Retry shortly.");
    expect(toErrorResponse(toServiceError(own))).toMatchObject({
      status: 503,
      headers: { "Retry-After": String(BACKEND_RETRY_AFTER_SECONDS) },
    });
    expect(toErrorResponse(toServiceError(own.withDetails({ retryAfterSeconds: 2 }))).headers["Retry-After"]).toBe("2");
  });

  it("a backend that answered INTERNAL (its bug, with its code attached) is still a 500", () => {
    const bug = toServiceError(new Error("boom"));
    expect(toErrorResponse(bug).status).toBe(500);
  });
});
