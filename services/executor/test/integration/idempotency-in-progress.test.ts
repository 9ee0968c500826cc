// A duplicate that arrives while the first request with its Idempotency-Key still runs, and may not
// wait (IDEMPOTENCY_WAIT_MS=0), is told IDEMPOTENCY_IN_PROGRESS with when to retry; it runs nothing.
import { status } from "@grpc/grpc-js";
import { waitFor } from "@agentic/testing";
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("a concurrent duplicate that may not wait", () => {
  let sys: ExecutorSystem;
  beforeAll(async () => {
    sys = await startExecutorSystem({ env: { IDEMPOTENCY_WAIT_MS: "0" } });
    await sys.ledger.client.grantCredits({ grantId: "grant-in-progress", userId: "in-progress-user", amountCredits: 100, reason: "test" });
  });
  afterAll(() => sys?.stop());

  it("gets IDEMPOTENCY_IN_PROGRESS, and the stored result once the first request is done", async () => {
    const request = {
      userId: "in-progress-user",
      domainKey: "email",
      capabilityId: "send",
      input: { to: "ada@example.com", subject: "s", text: "t", provider: "resend" },
      idempotencyKey: "in-progress-1",
    };
    // The first call is held long enough for the duplicate to be planned and claimed on a loaded machine
    // (400 ms was outrun in a CI run on a slower machine: the first had finished, so the duplicate replayed it).
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 3_000, count: 1 });
    const first = sys.executor.client.execute(request);
    await waitFor(() => sys.sandbox.control.calls("resend").length === 1, { what: "the first request's provider call" });
    await expect(sys.executor.client.execute(request)).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: expect.stringContaining("is still running"),
    });
    const done = await first;
    expect(await sys.executor.client.execute(request)).toMatchObject({ replayed: true, providerMessageId: done.providerMessageId });
    expect(sys.sandbox.control.calls("resend")).toHaveLength(1);
    await sys.ledger.assertConsistent();
  });
});
