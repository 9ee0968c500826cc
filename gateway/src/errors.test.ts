// sendErrorResponse over HTTP for a backend error: of a backend error's details, only retryAfterSeconds (Retry-After)
// and executionId (body field and Execution-Id header) reach the client, and only when well formed;
// every other ErrorResponse stays as it was. The error is built as a backend sends it (toServiceError).
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { AppError, toServiceError } from "@agentic/platform";
import { sendErrorResponse } from "./errors";

describe("sendErrorResponse of a backend error", () => {
  let server: Server;
  let origin: string;
  let next: AppError;

  beforeAll(async () => {
    const app = express();
    app.get("/", (_req, res) => sendErrorResponse(res, toServiceError(next)));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  async function answer(err: AppError) {
    next = err;
    const res = await fetch(origin);
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      retryAfter: res.headers.get("retry-after"),
      executionId: res.headers.get("execution-id"),
    };
  }

  const conflict = (details?: Record<string, unknown>) =>
    new AppError("failed_precondition", "IDEMPOTENCY_IN_PROGRESS", "still running", "Retry with the same Idempotency-Key.", details);

  it("sets Retry-After from retryAfterSeconds and carries executionId in the body and the Execution-Id header", async () => {
    const got = await answer(conflict({ executionId: "exe_abc123", retryAfterSeconds: 2, state: "running" }));
    expect(got).toEqual({
      status: 409,
      body: {
        success: false,
        error: "still running",
        code: "IDEMPOTENCY_IN_PROGRESS",
        hint: "Retry with the same Idempotency-Key.",
        executionId: "exe_abc123",
      },
      retryAfter: "2",
      executionId: "exe_abc123",
    });
  });

  it("rounds a fractional Retry-After up, never inviting a retry too early", async () => {
    expect((await answer(conflict({ retryAfterSeconds: 1.2 }))).retryAfter).toBe("2");
  });

  it("leaves the answer as before without those details, or with malformed ones", async () => {
    const plain = { success: false, error: "still running", code: "IDEMPOTENCY_IN_PROGRESS", hint: "Retry with the same Idempotency-Key." };
    for (const details of [
      undefined,
      { attempts: [{ routeKey: "email.send.resend" }] },
      { executionId: 42, retryAfterSeconds: "2" },
      { executionId: "exe 1\r\nX: y", retryAfterSeconds: -1 },
    ]) {
      expect({ details, got: await answer(conflict(details)) }).toEqual({
        details,
        got: { status: 409, body: plain, retryAfter: null, executionId: null },
      });
    }
  });

  it("maps the status as before: EXECUTION_OUTCOME_UNKNOWN is a 502 naming its execution", async () => {
    const got = await answer(
      new AppError("internal", "EXECUTION_OUTCOME_UNKNOWN", "interrupted", "Check the effect.", {
        executionId: "exe_gone",
        replayed: true,
      }),
    );
    expect([got.status, got.body.code, got.body.executionId, got.executionId, got.retryAfter]).toEqual([
      502,
      "EXECUTION_OUTCOME_UNKNOWN",
      "exe_gone",
      "exe_gone",
      null,
    ]);
  });
});
