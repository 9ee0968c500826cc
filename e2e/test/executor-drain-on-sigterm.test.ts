// A rollout stops an executor with SIGTERM while it runs executions: the whole system as real
// processes, three email sends in flight against a provider stand-in that answers in 30 s (one
// attempt, PROVIDER_TIMEOUT_MS 40 s), then SIGTERM to the executor once they are all at the vendor. It stops
// taking connections and calls (one executor here, so a new execute is refused with a JSON 503 and
// Retry-After: nothing held or sent; gateway/test/execute-retries-a-draining-executor shows another
// executor serving it), finishes the three, each answered 200 and charged exactly once, and only then
// exits, with code 0. Keepalive pings are due every 5 s meanwhile: the connection closing gracefully
// must carry its calls through them (grpc-js dropped them at the first one; patches/README.md).
import { createHealthChecker } from "@agentic/platform";
import { waitFor } from "@agentic/testing";
import { startControlledSystem, type ControlledSystem } from "./support/controlled-system";
import { FAULT_TEST_ENV } from "./support/fault-env";
import { providerCallCount, sandboxControl } from "./support/sandbox-control";
import { systemClient } from "./support/system-client";

/** The provider's answer time: a slow but valid vendor, longer than the keepalive interval several times over. */
const PROVIDER_DELAY_MS = 30_000;
const PRICE = 10; // email.send on resend
const IN_FLIGHT = 3;

// One attempt that may take 40 s, a budget above it, and the stop deadline the executor derives from
// them (at least EXECUTION_BUDGET_MS + SETTLEMENT_PUBLISH_TIMEOUT_MS + 2 x (3 x DEPENDENCY_DEADLINE_MS + 1 s) + 5 s = 66 s).
const ENV = {
  ...FAULT_TEST_ENV,
  MAX_ATTEMPTS: "1",
  PROVIDER_TIMEOUT_MS: "40000",
  SETTLEMENT_PUBLISH_TIMEOUT_MS: "2000",
  EXECUTION_BUDGET_MS: "45000",
  IDEMPOTENCY_LEASE_MS: "60000",
  HOLD_TTL_MS: "90000",
  SHUTDOWN_DEADLINE_MS: "90000",
  GRPC_KEEPALIVE_TIME_MS: "5000",
  GRPC_KEEPALIVE_TIMEOUT_MS: "2000",
};

let sys: ControlledSystem;
const { api, sendEmail, balance, warmUp } = systemClient(() => sys);
const sandbox = (path: string, init?: RequestInit) => sandboxControl(sys, path, init);
const resendCalls = () => providerCallCount(sys, "resend");
const send = (key: string) => sendEmail(key, "Sent once, through a rollout.");
/** Charges of email.send on the books (GET /usage): failed attempts charge 0 and are not counted. */
const charges = async () => {
  const page = (await (await api("/usage?capabilityKey=email.send&kind=charge&limit=100")).json()) as {
    items: { creditsCharged: number }[];
  };
  return page.items.filter((i) => i.creditsCharged > 0).map((i) => i.creditsCharged);
};

beforeAll(async () => {
  sys = await startControlledSystem(ENV);
  await api("/dev/init", { method: "POST", body: JSON.stringify({ balanceCredits: 1000 }) });
}, 90_000);
afterAll(() => sys?.stop());

describe("SIGTERM to an executor with executions in flight", () => {
  it("refuses new executes, finishes and charges each one in flight exactly once, then exits 0", async () => {
    expect((await warmUp()).status).toBe(200);
    const before = { balance: await balance(), calls: await resendCalls(), charges: (await charges()).length };

    await sandbox("/faults", {
      method: "POST",
      body: JSON.stringify({ provider: "resend", mode: "slow", delayMs: PROVIDER_DELAY_MS, count: IN_FLIGHT }),
    });
    const keys = Array.from({ length: IN_FLIGHT }, (_, i) => `drain-${i}-${Date.now()}`);
    const answers = keys.map((key) => send(key));
    await waitFor(async () => (await resendCalls()) === before.calls + IN_FLIGHT, {
      what: "three provider calls in flight",
      timeoutMs: 15_000,
    });

    const exited = sys.kill("executor", "SIGTERM");
    const health = createHealthChecker(`127.0.0.1:${sys.ports.executor!.port}`);
    try {
      // No longer SERVING, nor taking connections: the stop has begun (the calls in flight run on).
      await waitFor(async () => !(await health.check(1_000)), { what: "the executor's health to leave SERVING", timeoutMs: 10_000 });
    } finally {
      health.close();
    }

    const refused = await send(`drain-refused-${Date.now()}`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toMatch(/application\/json/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const refusal = (await refused.json()) as { success: boolean; code: string; error: string; hint: string };
    // The only executor takes no new connection: the gateway says so (with more executors, another one would serve it).
    expect(refusal).toMatchObject({ success: false, code: "UNAVAILABLE" });
    expect(refusal.hint).toMatch(/executor is unavailable; retry after \d+ s/);

    const results = await Promise.all(answers);
    const ids: string[] = [];
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, provider: "resend", creditsCharged: PRICE });
      ids.push(res.headers.get("execution-id") ?? "");
    }
    expect(new Set(ids).size).toBe(IN_FLIGHT);
    expect(await exited).toEqual({ code: 0, signal: null });

    // One provider call each, none for the refused request; one charge each, on the wallet and in usage.
    expect(await resendCalls()).toBe(before.calls + IN_FLIGHT);
    await waitFor(async () => (await balance()) === before.balance - IN_FLIGHT * PRICE, {
      what: `the balance to fall by ${IN_FLIGHT * PRICE}`,
      timeoutMs: 15_000,
    });
    for (const id of ids) {
      const view = (await (await api(`/executions/${id}`)).json()) as { execution: { state: string; creditsCharged: number } };
      expect(view.execution).toMatchObject({ state: "succeeded", creditsCharged: PRICE });
    }
    const after = await charges();
    expect(after.length).toBe(before.charges + IN_FLIGHT);
    expect(await balance()).toBe(before.balance - IN_FLIGHT * PRICE);
  }, 150_000);
});
