// Live route health over a real nats-server: RouteOutcome messages published to executions.outcome
// move the pick within seconds, recovery wins it back, and replicas fed the same stream agree.
import { SUBJECT_OUTCOME } from "@agentic/platform";
import type { RecommendResponse } from "@agentic/proto/router/v1";
import { waitFor } from "@agentic/testing";
import { publishOutcome, type TestRouter } from "../harness";
import { startRouterSystem, type RouterSystem } from "../system";

const USER = "user-health";
const CHEAP = "geo.time.current.worldtime";
const BACKUP = "geo.time.current.timezonedb";

describe("route health learned from execution outcomes", () => {
  let sys: RouterSystem;
  beforeAll(async () => {
    sys = await startRouterSystem({ grants: { [USER]: 1_000 } });
  });
  afterAll(() => sys?.stop());

  const pick = (router: TestRouter): Promise<RecommendResponse> =>
    router.client.recommend({
      userId: USER,
      domainKey: "geo",
      capabilityId: "time-current",
      input: { optimizationPreferences: ["cost"] },
      optimizationPreferences: [],
    });

  let published = 0;
  async function publish(routeKey: string, ok: boolean, count: number, latencyMs = 120): Promise<void> {
    for (let i = 0; i < count; i++) {
      await publishOutcome(sys.router.nc, { routeKey, ok, latencyMs, errorKind: ok ? "" : "timeout" });
      published += 1;
    }
  }

  it("a route whose outcomes turn bad loses the pick within seconds and wins it back after recovery", async () => {
    expect((await pick(sys.router)).recommendedRouteKey).toBe(CHEAP);

    await publish(CHEAP, false, 5);
    const started = Date.now();
    let res: RecommendResponse | undefined;
    await waitFor(async () => (res = await pick(sys.router)).recommendedRouteKey === BACKUP, {
      timeoutMs: 5_000,
      what: "the backup route to win",
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const sick = res!.candidates.find((c) => c.routeKey === CHEAP)!;
    expect(sick).toMatchObject({ score: 0, canExecuteNow: false, blockingRequirements: ["ROUTE_UNHEALTHY"] });
    expect(sick.reasons.join("\n")).toContain("breaker open after 5 consecutive failures (last: timeout)");
    expect(res!.bestExecutableRouteKey).toBe(BACKUP);

    await publish(CHEAP, true, 20, 250);
    // The pick can move back before the last of them is applied; the figures below count all 20.
    await sys.router.waitForOutcomes(published);
    await waitFor(async () => (res = await pick(sys.router)).recommendedRouteKey === CHEAP, {
      timeoutMs: 5_000,
      what: "the cheap route to win back",
    });
    const healed = res!.candidates[0]!;
    expect(healed).toMatchObject({ canExecuteNow: true, blockingRequirements: [] });
    expect(healed.reasons).toContain("80.0% success over the last 25 calls");
    expect(healed.reasons).toContain("p50 250 ms over the last 20 successful calls");
  });

  it("two router instances converge on the same pick from the same outcomes, a late one by replay", async () => {
    const second = await sys.addRouter();
    await publish(BACKUP, true, 3, 90);
    await publish(CHEAP, false, 5);
    await waitFor(
      async () => {
        const [a, b] = await Promise.all([pick(sys.router), pick(second)]);
        return a.recommendedRouteKey === BACKUP && b.recommendedRouteKey === BACKUP;
      },
      { timeoutMs: 5_000, what: "both routers to move to the backup route" },
    );

    // A replica started after the outcomes replays them from the stream and agrees as well.
    const late = await sys.addRouter();
    await Promise.all([sys.router, second, late].map((r) => r.waitForOutcomes(published)));
    const [a, b, c] = await Promise.all([pick(sys.router), pick(second), pick(late)]);
    expect(b.candidates).toEqual(a.candidates);
    expect(c.candidates).toEqual(a.candidates);
    expect(c.recommendedRouteKey).toBe(BACKUP);
    expect(late.app.outcomes.applied).toBe(published);
    expect(sys.router.app.outcomes.applied).toBe(published);
  });

  it("skips a message that is not a RouteOutcome and keeps consuming", async () => {
    const before = sys.router.app.outcomes.applied;
    await sys.router.nc.jetstream().publish(SUBJECT_OUTCOME, new Uint8Array([0xff, 0xff, 0xff]));
    await publish(BACKUP, true, 1);
    await sys.router.waitForOutcomes(before + 1);
    expect(sys.router.app.outcomes.applied).toBe(before + 1);
  });
});
