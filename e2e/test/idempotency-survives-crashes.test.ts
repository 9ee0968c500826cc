// One Idempotency-Key is one provider call and one charge, whatever crashes: the whole system as
// real processes (ledger on its SQLite file), a slow provider in the sandbox, and SIGKILLs of the
// ledger and the executor while the provider call is in flight.
import { waitFor } from "@agentic/testing";
import { startControlledSystem, type ControlledSystem } from "./support/controlled-system";
import { FAULT_TEST_ENV } from "./support/fault-env";
import { providerCallCount, sandboxControl } from "./support/sandbox-control";
import { systemClient } from "./support/system-client";

// The hold outlives the executor-gone test's whole sequence (kill, restart, lease, retry) on a loaded
// machine, so its retry meets the indeterminate execution before the hold expires and reconciles it.
const ENV: Readonly<Record<string, string>> = { ...FAULT_TEST_ENV, HOLD_TTL_MS: "20000" };
const PRICE = 10; // email.send on resend

let sys: ControlledSystem;
const { api, sendEmail } = systemClient(() => sys);
const sandbox = (path: string, init?: RequestInit) => sandboxControl(sys, path, init);
const resendCalls = () => providerCallCount(sys, "resend");
const slowResend = (delayMs: number) =>
  sandbox("/faults", { method: "POST", body: JSON.stringify({ provider: "resend", mode: "slow", delayMs, count: 1 }) });
const send = (key: string) => sendEmail(key, "Once.");
/** A client's retry: a 503 while a restarted service is being reconnected is retried, as any client would. */
async function retry(key: string): Promise<Response> {
  let res: Response | undefined;
  await waitFor(
    async () => {
      res = await send(key);
      return res.status !== 503;
    },
    { what: `an answer other than 503 for ${key}`, timeoutMs: 15_000, intervalMs: 250 },
  );
  return res!;
}
/** The balance, read as a client would: a 503 while a restarted ledger is being reconnected is asked again. */
async function balance(): Promise<number> {
  let res: Response | undefined;
  await waitFor(
    async () => {
      res = await api("/wallet");
      return res.status !== 503;
    },
    { what: "a wallet answer other than 503", timeoutMs: 15_000, intervalMs: 250 },
  );
  expect(res!.status).toBe(200);
  return ((await res!.json()) as { balanceCredits: number }).balanceCredits;
}

beforeAll(async () => {
  sys = await startControlledSystem(ENV);
  await api("/dev/init", { method: "POST", body: JSON.stringify({ balanceCredits: 1000 }) });
}, 90_000);
afterAll(() => sys?.stop());

describe("an Idempotency-Key under crashes", () => {
  it("executor crash after the provider answered: the retry replays, one provider call, one charge", async () => {
    const before = { balance: await balance(), calls: await resendCalls() };
    await slowResend(1_500);
    const first = send("crash-executor-1");
    await waitFor(async () => (await resendCalls()) === before.calls + 1, { what: "the provider call in flight" });
    // The executor loses its path to the ledger while the provider works: the capture still goes to
    // JetStream (with the answer), but CompleteExecution never arrives.
    await sys.kill("ledger");
    const answer = await first;
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { providerMessageId: string };
    await sys.kill("executor");
    await sys.restart("ledger");
    await sys.restart("executor");

    const again = await retry("crash-executor-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toMatchObject({ providerMessageId: body.providerMessageId });
    expect(await resendCalls()).toBe(before.calls + 1);
    expect(await balance()).toBe(before.balance - PRICE);
  }, 60_000);

  it("ledger unreachable until the lease ran out: the retry replays, never runs again", async () => {
    const before = { balance: await balance(), calls: await resendCalls() };
    await slowResend(1_000);
    const first = send("ledger-gone-1");
    await waitFor(async () => (await resendCalls()) === before.calls + 1, { what: "the provider call in flight" });
    await sys.kill("ledger");
    const answer = await first;
    expect(answer.status).toBe(200);
    const leaseOver = Date.now() + Number(ENV.IDEMPOTENCY_LEASE_MS);
    await waitFor(() => Date.now() > leaseOver, { what: "the claim's lease to run out", timeoutMs: 10_000 });
    await sys.restart("ledger");

    const again = await retry("ledger-gone-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await resendCalls()).toBe(before.calls + 1);
    expect(await balance()).toBe(before.balance - PRICE);
  }, 60_000);

  it("executor gone mid-call: indeterminate (never re-run, hold kept), then outcome_unknown and nothing charged", async () => {
    const before = { balance: await balance(), calls: await resendCalls() };
    await slowResend(2_000);
    const first = send("executor-gone-1");
    await waitFor(async () => (await resendCalls()) === before.calls + 1, { what: "the provider call in flight" });
    // The lease began with the claim, before the kill: counted from the kill, it has surely run out
    // (while the executor restarts, not after).
    const leaseOver = Date.now() + Number(ENV.IDEMPOTENCY_LEASE_MS) + 500;
    await sys.kill("executor");
    // The call reached the executor and got no answer: its outcome is unknown, so the gateway names the
    // execution to read (as for its own deadline), never a 503 that invites a blind retry.
    const lost = await first;
    expect(lost.status).toBe(504);
    const lostBody = (await lost.json()) as { code: string; executionId: string; hint: string };
    expect(lostBody).toMatchObject({ code: "TIMEOUT", executionId: lost.headers.get("execution-id") });
    expect(lostBody.hint).toContain(`GET /executions/${lostBody.executionId}`);
    await sys.restart("executor");
    expect(await balance()).toBe(before.balance - PRICE); // held, not released: the provider may have acted

    await waitFor(() => Date.now() > leaseOver, { what: "the lease to run out", timeoutMs: 10_000 });
    const pending = await retry("executor-gone-1");
    expect(pending.status).toBe(409);
    expect(Number(pending.headers.get("retry-after"))).toBeGreaterThan(0);
    const pendingBody = (await pending.json()) as { code: string; executionId: string };
    expect(pendingBody.code).toBe("EXECUTION_INDETERMINATE");
    expect(pendingBody.executionId).toMatch(/^exe_/);

    // Reconciled: the hold expires, no capture can come any more, the execution is outcome_unknown.
    let final: Response | undefined;
    await waitFor(
      async () => {
        final = await send("executor-gone-1");
        return final.status !== 409 && final.status !== 503;
      },
      { what: "the execution to be reconciled", timeoutMs: 20_000, intervalMs: 250 },
    );
    expect(final!.status).toBe(502);
    expect(await final!.json()).toMatchObject({ code: "EXECUTION_OUTCOME_UNKNOWN" });
    expect(await resendCalls()).toBe(before.calls + 1);
    expect(await balance()).toBe(before.balance);
  }, 60_000);
});
