// Recommend (the router) and execute (the executor, ranking in process) rank alike: the same library,
// the same settings (a router override reaches the executor), the same route health learned from the
// same outcomes, the same remembered goals. For each goal set, an execute runs the route recommend
// names as the best executable one and is charged that route's price; a breaker opened by outcomes
// (at the router's BREAKER_FAILURES, not the default) takes the route away from both.
import { publishOutcome } from "@agentic/router/testing";
import type { ExecuteRequest } from "@agentic/proto/executor/v1";
import { startExecutorSystem, type ExecutorSystem } from "../system";

const USER = "ranks-alike-user";
const GOAL_SETS = [["cost"], ["speed"], ["reliability"], ["quality"], ["speed", "cost"], ["quality", "reliability"]];

describe("execute ranks as recommend does", () => {
  let sys: ExecutorSystem;
  /** Outcomes on the stream so far: both rankers wait for all of them before a comparison. */
  let outcomes = 0;
  const bothCaughtUp = () => Promise.all([sys.router.waitForOutcomes(outcomes), sys.executor.waitForOutcomes(outcomes)]);

  beforeAll(async () => {
    sys = await startExecutorSystem({ routerEnv: { BREAKER_FAILURES: "3" } });
    await sys.ledger.client.grantCredits({ grantId: `grant-${USER}`, userId: USER, amountCredits: 10_000, reason: "test" });
    // Live health that moves the ranking away from the catalog priors: resend slow, sendgrid flaky.
    for (let i = 0; i < 30; i++) await publishOutcome(sys.router.nc, { routeKey: "email.send.resend", ok: true, latencyMs: 2_000 });
    for (let i = 0; i < 12; i++) await publishOutcome(sys.router.nc, { routeKey: "email.send.sendgrid", ok: i % 3 !== 0, latencyMs: 40 });
    outcomes += 42;
    await bothCaughtUp();
  });
  afterAll(() => sys?.stop());
  afterEach(() => sys.ledger.assertConsistent());

  const email = (more: Partial<ExecuteRequest> = {}, extra: Record<string, unknown> = {}): ExecuteRequest => ({
    userId: USER,
    domainKey: "email",
    capabilityId: "send",
    input: { to: "ada@example.com", subject: "s", text: "t", ...extra },
    ...more,
  });

  /** Recommend's best executable route and its price, then the execute with the same goals; both after every outcome so far. */
  async function compare(goals: string[]) {
    await bothCaughtUp();
    const rec = await sys.router.client.recommend({
      userId: USER,
      domainKey: "email",
      capabilityId: "send",
      input: {},
      optimizationPreferences: goals,
    });
    const best = rec.candidates.find((c) => c.routeKey === rec.bestExecutableRouteKey)!;
    const res = await sys.executor.client.execute(email({}, { optimizationPreferences: goals }));
    outcomes += res.attempts.length;
    return { rec, best, res };
  }

  const picked = new Set<string>();
  it.each(GOAL_SETS.map((goals) => [goals]))("under %j, runs recommend's best executable route and charges its price", async (goals) => {
    const { rec, best, res } = await compare(goals);
    expect(res.attempts.map((a) => a.routeKey)).toEqual([rec.bestExecutableRouteKey]);
    expect(res).toMatchObject({ success: true, routeKey: best.routeKey, creditsCharged: best.priceCredits });
    picked.add(res.routeKey);
  });

  it("compared real choices: the goal sets picked different routes", () => {
    expect(picked.size).toBeGreaterThan(1);
  });

  it("ranks by an agent's goals that recommend remembered (read from the router's bucket)", async () => {
    await bothCaughtUp();
    const ask = { userId: USER, domainKey: "email", capabilityId: "send" };
    const byDefault = await sys.router.client.recommend({ ...ask, input: {}, optimizationPreferences: [] });
    await sys.router.client.recommend({ ...ask, input: { agentName: "fast-agent" }, optimizationPreferences: ["speed"] });
    const remembered = await sys.router.client.recommend({ ...ask, input: { agentName: "fast-agent" }, optimizationPreferences: [] });
    expect(remembered).toMatchObject({ preferenceSource: "agent", optimizationPreferences: ["speed"] });
    expect(remembered.bestExecutableRouteKey).not.toBe(byDefault.bestExecutableRouteKey);
    const res = await sys.executor.client.execute(email({ agentName: "fast-agent" }));
    outcomes += res.attempts.length;
    expect(res.routeKey).toBe(remembered.bestExecutableRouteKey);
  });

  it("leaves out a route whose breaker the outcomes opened, at the router's BREAKER_FAILURES (3), as recommend does", async () => {
    const { rec: before } = await compare(["cost"]);
    const cheapest = before.bestExecutableRouteKey!;
    // Platform evidence (no user) counts in full: three failures open the breaker under BREAKER_FAILURES=3, not under the default 5.
    for (let i = 0; i < 3; i++) await publishOutcome(sys.router.nc, { routeKey: cheapest, ok: false, errorKind: "timeout" });
    outcomes += 3;
    const { rec, best, res } = await compare(["cost"]);
    expect(rec.candidates.find((c) => c.routeKey === cheapest)?.blockingRequirements).toContain("ROUTE_UNHEALTHY");
    expect(rec.bestExecutableRouteKey).not.toBe(cheapest);
    expect(res).toMatchObject({ routeKey: best.routeKey, creditsCharged: best.priceCredits });
    expect(res.attempts.map((a) => a.routeKey)).not.toContain(cheapest);
  });
});
