// The whole execute path on a NATS that runs the shipped users and permissions
// (deploy/k8s/components/nats/auth.conf), each service connected as its own user: a charge is
// captured by the ledger and the outcome reaches the router and the executor's own ranking, and the
// executor reads what the router stored (a recommendation, an agent's goals), so the permissions are enough to run.
import { waitFor } from "@agentic/testing";
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("execute on an authorized NATS", () => {
  let sys: ExecutorSystem;
  beforeAll(async () => {
    sys = await startExecutorSystem({ natsAuthorization: true });
    await sys.ledger.client.grantCredits({ grantId: "grant-nats-auth", userId: "nats-auth-user", amountCredits: 100, reason: "test" });
  });
  afterAll(() => sys?.stop());

  it("settles the charge in the ledger and the outcome in the router", async () => {
    const res = await sys.executor.client.execute({
      userId: "nats-auth-user",
      domainKey: "email",
      capabilityId: "send",
      input: { to: "ada@example.com", subject: "s", text: "t", provider: "resend" },
    });
    expect(res.creditsCharged).toBeGreaterThan(0);
    await sys.router.waitForOutcomes(1);
    await sys.executor.waitForOutcomes(1);
    const wallet = async () => (await sys.ledger.client.getWallet({ userId: "nats-auth-user" })).wallet;
    await waitFor(async () => (await wallet())?.heldCredits === 0, { what: "the capture to reach the ledger" });
    expect(await wallet()).toMatchObject({ balanceCredits: 100 - res.creditsCharged, heldCredits: 0 });
    await sys.ledger.assertConsistent();
  });

  it("runs a stored recommendation and an agent's remembered goals, read from the router's buckets", async () => {
    const rec = await sys.router.client.recommend({
      userId: "nats-auth-user",
      domainKey: "email",
      capabilityId: "send",
      input: { agentName: "nats-agent" },
      optimizationPreferences: ["speed"],
    });
    const stored = await sys.executor.client.execute({
      userId: "nats-auth-user",
      domainKey: "email",
      capabilityId: "send",
      input: { to: "ada@example.com", subject: "s", text: "t", recommendationId: rec.recommendationId },
    });
    expect(stored.routeKey).toBe(rec.bestExecutableRouteKey);
    const byAgent = await sys.executor.client.execute({
      userId: "nats-auth-user",
      domainKey: "email",
      capabilityId: "send",
      agentName: "nats-agent",
      input: { to: "ada@example.com", subject: "s", text: "t" },
    });
    expect(byAgent.routeKey).toBe(rec.bestExecutableRouteKey);
  });

  it("counts a vendor quota the executor takes from and the router reads", async () => {
    const res = await sys.executor.client.execute({
      userId: "nats-auth-user",
      domainKey: "finance",
      capabilityId: "fx-rate",
      input: { base: "USD", quote: "EUR" },
    });
    expect(res.routeKey).toBe("finance.fx.rate.openexchangerates");
    const rec = await sys.router.client.recommend({
      userId: "nats-auth-user",
      domainKey: "finance",
      capabilityId: "fx-rate",
      input: {},
      optimizationPreferences: [],
    });
    expect(rec.candidates[0]!.reasons.join(" ")).toContain("vendor quota: 9999 of 10000 requests left for everyone, 999 of your 1000");
  });
});
