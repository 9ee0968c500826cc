// Every gRPC server recycles its connections (a GOAWAY at GRPC_MAX_CONNECTION_AGE_MS, so clients
// re-resolve and reach new pods) and gives the calls still on one a grace derived from the longest
// call it accepts. Here connections age out every 2 s with keepalive pings every second, while
// executes wait 8 s on their vendor: each client gets its 200 and is charged exactly once.
import { waitFor } from "@agentic/testing";
import { startControlledSystem, type ControlledSystem } from "./support/controlled-system";
import { FAULT_TEST_ENV } from "./support/fault-env";
import { providerCallCount, sandboxControl } from "./support/sandbox-control";
import { systemClient } from "./support/system-client";

const PROVIDER_DELAY_MS = 8_000;
const PRICE = 10; // email.send on resend
const IN_FLIGHT = 3;

const ENV = {
  ...FAULT_TEST_ENV,
  PROVIDER_TIMEOUT_MS: "12000",
  SETTLEMENT_PUBLISH_TIMEOUT_MS: "2000",
  EXECUTION_BUDGET_MS: "15000",
  IDEMPOTENCY_LEASE_MS: "30000",
  HOLD_TTL_MS: "60000",
  SHUTDOWN_DEADLINE_MS: "45000",
  GRPC_MAX_CONNECTION_AGE_MS: "2000",
  GRPC_KEEPALIVE_TIME_MS: "1000",
  GRPC_KEEPALIVE_TIMEOUT_MS: "1000",
};

let sys: ControlledSystem;
const { api, sendEmail, balance, warmUp } = systemClient(() => sys);
const send = (key: string) => sendEmail(key, "Sent once, across a recycled connection.");

beforeAll(async () => {
  sys = await startControlledSystem(ENV);
  await api("/dev/init", { method: "POST", body: JSON.stringify({ balanceCredits: 1000 }) });
}, 90_000);
afterAll(() => sys?.stop());

describe("connections reaching their maximum age under long executes", () => {
  it("answers every execute 200 and charges each once", async () => {
    expect((await warmUp()).status).toBe(200);
    const before = { balance: await balance(), calls: await providerCallCount(sys, "resend") };

    await sandboxControl(sys, "/faults", {
      method: "POST",
      body: JSON.stringify({ provider: "resend", mode: "slow", delayMs: PROVIDER_DELAY_MS, count: IN_FLIGHT }),
    });
    const results = await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => send(`aged-${i}-${Date.now()}`)));
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, provider: "resend", creditsCharged: PRICE });
    }
    expect(await providerCallCount(sys, "resend")).toBe(before.calls + IN_FLIGHT);
    await waitFor(async () => (await balance()) === before.balance - IN_FLIGHT * PRICE, {
      what: `the balance to fall by ${IN_FLIGHT * PRICE}`,
      timeoutMs: 15_000,
    });
  }, 90_000);
});
