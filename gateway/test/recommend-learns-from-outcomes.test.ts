// Recommend over the gateway is honest about money and learns from live outcomes: a 1-credit
// wallet is told CREDITS_REQUIRED on managed routes, and a route whose outcomes turn bad loses the
// pick within seconds and wins it back after it recovers.
import { waitFor } from "@agentic/testing";
import { publishOutcome } from "@agentic/router/testing";
import { connect, type NatsConnection } from "nats";
import { startBackedSystem, TEST_USER, type BackedSystem } from "./backed-system";

describe("recommend learns from outcomes", () => {
  let sys: BackedSystem;
  let nc: NatsConnection;
  const recommend = async (body: unknown) =>
    (
      await sys.authed("/domains/email/capabilities/send/recommend", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    ).json() as any;

  beforeAll(async () => {
    sys = await startBackedSystem();
    nc = await connect({ servers: sys.nats.url });
  });
  afterAll(async () => {
    await nc?.close();
    await sys?.stop();
  });

  it("a 1-credit wallet gets CREDITS_REQUIRED with how much is missing", async () => {
    const init = await fetch(`${sys.gw.baseUrl}/dev/init`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: TEST_USER, balanceCredits: 1 }),
    });
    expect(((await init.json()) as any).balanceCredits).toBe(1);
    const body = await recommend({ optimizationPreferences: ["cost"] });
    expect(body.canExecuteNow).toBe(false);
    expect(body).not.toHaveProperty("bestExecutableRouteKey");
    const managed = body.candidates.filter((c: any) => c.routeMode === "managed");
    expect(managed.length).toBeGreaterThan(0);
    for (const c of managed) {
      expect(c.canExecuteNow).toBe(false);
      expect(c.blockingRequirements).toContain("CREDITS_REQUIRED");
      expect(c.nextActions.join(" ")).toMatch(new RegExp(`Add ${c.priceCredits - 1} credits`));
    }
  });

  it("a route whose outcomes turn bad loses the pick, and wins it back after recovery", async () => {
    await fetch(`${sys.gw.baseUrl}/dev/init`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: TEST_USER, balanceCredits: 1000 }),
    });
    const healthyPick = (await recommend({ optimizationPreferences: ["cost"] })).recommendedRouteKey as string;
    expect(healthyPick).toMatch(/^email\.send\./);

    for (let i = 0; i < 6; i++) await publishOutcome(nc, { routeKey: healthyPick, ok: false, errorKind: "http_5xx" });
    await waitFor(async () => (await recommend({ optimizationPreferences: ["cost"] })).recommendedRouteKey !== healthyPick, {
      timeoutMs: 5_000,
      what: "the failing route to lose the pick",
    });
    const degraded = await recommend({ optimizationPreferences: ["cost"] });
    const failing = degraded.candidates.find((c: any) => c.routeKey === healthyPick);
    expect(failing.blockingRequirements).toContain("ROUTE_UNHEALTHY");

    // Successes (e.g. the half-open trial) close the breaker; with cost first, the cheap route wins again.
    for (let i = 0; i < 20; i++) await publishOutcome(nc, { routeKey: healthyPick, ok: true, latencyMs: 50 });
    await waitFor(async () => (await recommend({ optimizationPreferences: ["cost"] })).recommendedRouteKey === healthyPick, {
      timeoutMs: 5_000,
      what: "the recovered route to win the pick back",
    });
  });
});
