// executor_executions_in_flight, the metric the executor's autoscaler scales on (through
// prometheus-adapter): an execute waiting on a slow vendor counts while it runs, and nothing once it
// has answered and stored its result.
import { register } from "prom-client";
import { waitFor } from "@agentic/testing";
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("executions in flight", () => {
  let sys: ExecutorSystem;
  beforeAll(async () => {
    sys = await startExecutorSystem();
  });
  afterAll(() => sys?.stop());

  const inFlight = async () => Number(/^executor_executions_in_flight (\d+)$/m.exec(await register.metrics())?.[1]);

  it("counts an execute waiting on its vendor, and drops to 0 once it answered", async () => {
    await sys.ledger.client.grantCredits({ grantId: "grant-in-flight", userId: "in-flight-user", amountCredits: 100, reason: "test" });
    expect(await inFlight()).toBe(0);
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 1_500, count: 1 });
    const call = sys.executor.client.execute({
      userId: "in-flight-user",
      domainKey: "email",
      capabilityId: "send",
      input: { to: "ada@example.com", subject: "Report", text: "Attached.", provider: "resend" },
      agentName: "alpha_agent",
    });
    await waitFor(async () => (await inFlight()) === 1, { timeoutMs: 5_000, what: "one execution in flight" });
    await expect(call).resolves.toMatchObject({ attempts: [expect.objectContaining({ routeKey: "email.send.resend", ok: true })] });
    await waitFor(async () => (await inFlight()) === 0, { timeoutMs: 5_000, what: "no execution in flight" });
  });
});
