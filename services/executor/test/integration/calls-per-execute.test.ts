// What one execute costs the services behind it, counted by their own RPC metrics (every service of
// the system runs in this process, on prom-client's default registry): an unpinned execute ranks its
// routes in the executor (no Recommend, no GetWallet: the router is not called); a keyed execute
// claims its key and holds in one ledger call, its success is stored for its key by its capture (no
// second write), and a retry at once replays it all the same.
import { register } from "prom-client";
import type { ExecuteRequest } from "@agentic/proto/executor/v1";
import { startExecutorSystem, type ExecutorSystem } from "../system";

/** Calls served so far of each RPC method, by method name (rpc_server_duration_seconds counts). */
async function callsByMethod(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const m of (await register.metrics()).matchAll(/^rpc_server_duration_seconds_count\{([^}]*)\} (\d+)$/gm)) {
    const method = /rpc_method="([^"]+)"/.exec(m[1]!)?.[1] ?? "";
    counts[method] = (counts[method] ?? 0) + Number(m[2]);
  }
  return counts;
}

/** The calls `run` made, by method. */
async function callsDuring(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await callsByMethod();
  await run();
  const after = await callsByMethod();
  return Object.fromEntries(
    Object.entries(after)
      .map(([method, n]) => [method, n - (before[method] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
}

describe("the calls one execute makes", () => {
  let sys: ExecutorSystem;
  const USER = "calls-per-execute-user";
  beforeAll(async () => {
    sys = await startExecutorSystem();
    await sys.ledger.client.grantCredits({ grantId: `grant-${USER}`, userId: USER, amountCredits: 1_000, reason: "test" });
  });
  afterAll(() => sys?.stop());
  afterEach(() => sys.ledger.assertConsistent());

  const email = (extra: Record<string, unknown> = {}, more: Partial<ExecuteRequest> = {}): ExecuteRequest => ({
    userId: USER,
    domainKey: "email",
    capabilityId: "send",
    input: { to: "ada@example.com", subject: "s", text: "t", ...extra },
    ...more,
  });

  it("unpinned: ranked in the executor, with no router call and no wallet read", async () => {
    const calls = await callsDuring(async () => {
      for (let i = 0; i < 3; i++) expect(await sys.executor.client.execute(email())).toMatchObject({ success: true });
    });
    expect(calls).toMatchObject({ Execute: 3, HoldCredits: 3 });
    expect(calls.Recommend).toBeUndefined();
    expect(calls.GetWallet).toBeUndefined();
  });

  it("keyed: the success is stored for its key by its capture alone, and a retry at once replays it", async () => {
    const req = email({}, { idempotencyKey: `calls-${Date.now()}` });
    let first: Awaited<ReturnType<typeof sys.executor.client.execute>> | undefined;
    const calls = await callsDuring(async () => {
      first = await sys.executor.client.execute(req);
      const again = await sys.executor.client.execute(req);
      expect(again).toMatchObject({ replayed: true, executionId: first.executionId, routeKey: first.routeKey });
    });
    expect(first).toMatchObject({ success: true, replayed: false });
    // One run: one ledger call claims the key and holds. The retry plans (planning only reads), and its
    // claim-and-hold finds the key completed: it replays the stored answer with nothing held.
    expect(calls).toMatchObject({ Execute: 2, ClaimIdempotencyKeyAndHoldCredits: 2 });
    expect(calls.Recommend).toBeUndefined();
    expect(calls.ClaimIdempotencyKey).toBeUndefined();
    expect(calls.HoldCredits).toBeUndefined();
    // The capture carried the whole answer and recorded it for the key with the charge: no CompleteExecution repeats it.
    expect(calls.CompleteExecution).toBeUndefined();
    await sys.ledger.waitForSettlement(first!.attempts[0]!.attemptId);
  });

  it("keyed, refused in planning: planned once, its refusal stored for the key after the claim, and a retry replays it", async () => {
    const req = email({ quoteId: "qt_never_issued_to_anyone" }, { idempotencyKey: `calls-refused-${Date.now()}` });
    const refused = () =>
      sys.executor.client.execute(req).then(
        (res) => new Error(`expected a refusal, got ${JSON.stringify(res)}`),
        (err: Error) => err,
      );
    const calls = await callsDuring(async () => {
      const first = await refused();
      expect(first.message).toMatch(/qt_never_issued_to_anyone/);
      const again = await refused();
      expect(again.message).toBe(first.message);
    });
    // Each request plans once, before its claim, and reads the quote there: the first runs that plan's refusal as the key's answer.
    expect(calls).toMatchObject({ Execute: 2, GetQuoteHold: 2, ClaimIdempotencyKey: 2, CompleteExecution: 1 });
    expect(calls.HoldCredits).toBeUndefined();
    expect(calls.ClaimIdempotencyKeyAndHoldCredits).toBeUndefined();
  });

  it("pinned to one route: no router call at all", async () => {
    const calls = await callsDuring(() => sys.executor.client.execute(email({ routeKey: "email.send.resend" })));
    expect(calls).toMatchObject({ Execute: 1, HoldCredits: 1 });
    expect(calls.Recommend).toBeUndefined();
    expect(calls.GetWallet).toBeUndefined();
  });
});
