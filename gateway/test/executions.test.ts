// GET /executions/{id} over HTTP against the real system: an execution reads as the ledger ended it
// (succeeded and charged, or failed and released), a running one reads as running with its hold,
// only its owner can read it, and a duplicate of a running key answers 409 with Retry-After and the
// execution's id (the backend error details reaching the client).
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody, execute, expectBalanceEqualsJournal, newUser, type TestUser } from "./execute-helpers";
import { validateResponse } from "./validate-response";

const PATH = "/executions/{executionId}";

describe("GET /executions/{executionId}", () => {
  let sys: BackedSystem;
  let user: TestUser;
  let n = 0;
  const key = () => `order-${process.pid}-${++n}`;

  beforeAll(async () => {
    // A duplicate of a running key answers at once instead of waiting for the first result.
    sys = await startBackedSystem({ executorEnv: { IDEMPOTENCY_WAIT_MS: "0" } });
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 100);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  /** GET /executions/{id} as `as`; fails the test when the answer is outside the OpenAPI document or may be cached. */
  async function read(id: string, as: TestUser = user): Promise<{ status: number; body: any }> {
    const res = await sys.authed(`/executions/${id}`, { key: as.key });
    const body = await res.json();
    expect({ problems: validateResponse("get", PATH, res.status, body) }).toEqual({ problems: [] });
    expect(res.headers.get("cache-control")).toBe("no-store");
    return { status: res.status, body };
  }

  /** Reads the execution until it is in `state`: the ledger applies the settlement that ends it asynchronously. */
  async function readWhen(id: string, state: string): Promise<any> {
    let last: any;
    await waitFor(
      async () => {
        last = (await read(id)).body.execution;
        return last.state === state;
      },
      { timeoutMs: 10_000, what: `execution ${id} to be ${state}` },
    );
    return last;
  }

  it("shows a served execution as succeeded, charged its price, with its one attempt captured", async () => {
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }));
    expect(res.status).toBe(200);
    const id = res.headers.get("execution-id")!;
    expect(id).toMatch(/^exe_/);

    const execution = await readWhen(id, "succeeded");
    // Without an Idempotency-Key the provider's data is not kept; the rest is the answer execute gave.
    const { data: _data, ...answered } = res.body;
    expect(execution).toEqual({
      executionId: id,
      state: "succeeded",
      indeterminate: false,
      capabilityKey: "email.send",
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      creditsCharged: res.body.creditsCharged,
      attempts: [
        {
          holdId: expect.any(String),
          routeKey: "email.send.resend",
          heldCredits: 10,
          state: "captured",
          chargedCredits: 10,
          createdAt: expect.any(String),
          settledAt: expect.any(String),
        },
      ],
      result: { httpStatus: 200, body: answered },
    });
    expect(execution.creditsCharged).toBe(10);
  });

  it("keeps another user's execution, an unknown id and a malformed id out of reach", async () => {
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }));
    const id = res.headers.get("execution-id")!;
    const other = await newUser(sys, 0);

    // Another user's execution answers exactly like an unknown one, so ids cannot be probed.
    const theirs = await read(id, other);
    expect([theirs.status, theirs.body.code]).toEqual([404, "EXECUTION_NOT_FOUND"]);
    const unknown = await read("exe_NoSuchExecution000000000");
    expect([unknown.status, unknown.body.code]).toEqual([404, "EXECUTION_NOT_FOUND"]);
    expect(unknown.body).toMatchObject({ success: false, error: expect.any(String), hint: expect.any(String) });

    for (const malformed of ["exe.1", "exe%20one", "a".repeat(129), "exe_%C3%A9"]) {
      const bad = await read(malformed);
      expect({ malformed, status: bad.status, code: bad.body.code }).toEqual({ malformed, status: 400, code: "INVALID_INPUT" });
    }
    expect((await read(id)).status).toBe(200);
  });

  it("answers 401 without an API key", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/executions/exe_NoSuchExecution000000000`);
    const body = await res.json();
    expect([res.status, (body as { code: string }).code]).toEqual([401, "AGENTIC_API_KEY_REQUIRED"]);
    expect(validateResponse("get", PATH, 401, body)).toEqual([]);
  });

  it("shows a failed execution as failed with nothing charged, its attempt released and the error it ended with", async () => {
    sys.sandbox.control.setFault({ provider: "sendgrid", mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "sendgrid" }));
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    // The error names no execution; its id is on the hold that paid for its attempt.
    let holdId: string | undefined;
    await waitFor(
      async () => {
        holdId = (await sys.ledger.client.listUsage({ userId: user.userId, limit: 1 })).items[0]?.holdId;
        return holdId !== undefined;
      },
      { what: "the failed attempt's usage item" },
    );
    const { hold } = await sys.ledger.client.getHold({ holdId: holdId! });
    const id = hold!.executionId!;

    const execution = await readWhen(id, "failed");
    expect(execution).toMatchObject({
      creditsCharged: 0,
      attempts: [{ routeKey: "email.send.sendgrid", heldCredits: 12, state: "released", chargedCredits: 0 }],
    });
    const { traceId: _traceId, ...answered } = res.body;
    expect(execution.result).toEqual({ httpStatus: 502, body: answered });
  });

  it("answers a duplicate of a running key with 409, Retry-After and the execution's id, which reads as running", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 3_000, count: 1 });
    const headers = { "idempotency-key": key() };
    const first = execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    // Once the provider has the call, its hold is placed and the execution is running.
    await waitFor(() => sys.sandbox.control.calls("resend").length === 1, { what: "the first request to reach resend" });

    const dup = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    expect([dup.status, dup.body.code]).toEqual([409, "IDEMPOTENCY_IN_PROGRESS"]);
    const id = dup.body.executionId as string;
    expect(id).toMatch(/^exe_/);
    expect(dup.headers.get("execution-id")).toBe(id);
    expect(Number(dup.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(dup.body.hint).toContain(`GET /executions/${id}`);

    const running = (await read(id)).body.execution;
    expect(running).toMatchObject({
      executionId: id,
      state: "running",
      indeterminate: false,
      idempotencyKey: headers["idempotency-key"],
      creditsCharged: 0,
    });
    expect(running.attempts).toEqual([
      expect.objectContaining({ routeKey: "email.send.resend", state: "held", heldCredits: 10, chargedCredits: 0 }),
    ]);
    expect(running).not.toHaveProperty("result");

    const done = await first;
    expect(done.status).toBe(200);
    expect(done.headers.get("execution-id")).toBe(id);
    // Under an Idempotency-Key the whole answer is kept (it is what a retry replays).
    expect((await readWhen(id, "succeeded")).result).toEqual({ httpStatus: 200, body: done.body });
  });
});
