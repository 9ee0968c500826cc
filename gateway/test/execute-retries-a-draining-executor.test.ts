// A rollout stops executors one at a time. The gateway's channel spreads executes over every
// executor address (round robin). The one that is stopping takes no new connection or call and
// tells its connected channels (GOAWAY), so they send their next executes to another executor; a
// call that raced the close is refused before anything is held (EXECUTOR_DRAINING) and the gateway
// asks again at once. Two real executors behind one real channel: every execute is served and
// charged once, none reaches the caller as a 503, and the stopping executor's own execution in
// flight still finishes.
import { createHealthChecker, fromServiceError, newId } from "@agentic/platform";
import { createExecutorClient } from "@agentic/clients";
import { startTestExecutor, type TestExecutor } from "@agentic/executor/testing";
import { testIdentities, waitFor } from "@agentic/testing";
import { callExecutor } from "../src/routes/execute-call";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, newUser, settled, type TestUser } from "./execute-helpers";

const PRICE = 10; // email.send.resend
const EXECUTES = 8;

let sys: BackedSystem;
let second: TestExecutor;
let user: TestUser;

beforeAll(async () => {
  sys = await startBackedSystem();
  second = await startTestExecutor({
    catalogAddress: sys.catalog.address,
    ledgerAddress: sys.ledger.address,
    natsUrl: sys.nats.url,
    sandboxUrl: sys.sandbox.url,
  });
  user = await newUser(sys, 10_000);
});
afterAll(async () => {
  await second?.stop();
  await sys?.stop();
});

it("serves every execute during one executor's stop from the other: each charged once, no 503, the stopping one's execution finished", async () => {
  const call = (capabilityId: string, input: Record<string, unknown>) =>
    ({ userId: user.userId, domainKey: "email", capabilityId, input }) as const;
  const resendBody = emailBody({ routeKey: "email.send.resend" });
  const before = await balance(sys, user);

  // The gateway's channel to both executors, as a headless Service's DNS name lists every pod; each has served already.
  const channel = createExecutorClient(`ipv4:${sys.executor.address},${second.address}`, 30_000, testIdentities().identity("gateway"));
  try {
    const served = () =>
      callExecutor(channel, call("send", resendBody)).then(
        (r) => ({ served: r.routeKey }),
        (err: unknown) => ({ refused: fromServiceError(err).code }),
      );
    expect([await served(), await served()]).toEqual(Array(2).fill({ served: "email.send.resend" }));

    // The first executor has an execution in flight (its vendor answers in 1.5 s) when its stop begins.
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 1_500, count: 1 });
    const inFlight = sys.executor.client.execute({ ...call("send", resendBody), executionId: newId("execution") });
    await waitFor(() => sys.sandbox.control.calls("resend").length === 3, { what: "the first executor's provider call" });
    const stopping = sys.executor.app.stop();
    const health = createHealthChecker(sys.executor.address);
    try {
      await waitFor(async () => !(await health.check(1_000)), { what: "the first executor to stop taking calls" });
    } finally {
      health.close();
    }

    const answers = await Promise.all(Array.from({ length: EXECUTES }, served));
    expect(answers).toEqual(Array(EXECUTES).fill({ served: "email.send.resend" }));
    expect(await inFlight).toMatchObject({ success: true, routeKey: "email.send.resend" });
    await stopping;
    await settled(sys, user.userId);
    // The two before, the eight, and the one the first executor finished while it drained: each charged once.
    expect(before - (await balance(sys, user))).toBe((EXECUTES + 3) * PRICE);
    expect(sys.sandbox.control.calls("resend").length).toBe(EXECUTES + 3);
  } finally {
    channel.close();
  }
});
