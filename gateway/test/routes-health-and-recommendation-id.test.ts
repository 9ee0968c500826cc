// Over HTTP, on the real catalog (the router's fixture data), ledger, router and nats-server: a capability's route list carries
// each route's live health from the router (and still answers, without it, when the router is down),
// and recommend answers a recommendationId with its expiry and a reason code for every candidate that
// cannot run now. Both valid against the OpenAPI document.
import { connect, type NatsConnection } from "nats";
import { startTestCatalog } from "@agentic/catalog/testing";
import { startTestLedger } from "@agentic/ledger/testing";
import { FIXTURE_CATALOG_DIR, publishOutcome, startTestRouter, type TestRouter } from "@agentic/router/testing";
import { startNatsServer, startTestSystem, waitFor, type NatsServerHandle } from "@agentic/testing";
import { startTestGateway, type TestGateway } from "./harness";
import { validateResponse as validate } from "./validate-response";

const KEY = "aak_TestKeyForRouteHealthOverHttp0000000001";
const USER = "user-route-health";
const ROUTES = "/domains/{domainKey}/capabilities/{capabilityId}/routes";
const RECOMMEND = "/domains/{domainKey}/capabilities/{capabilityId}/recommend";
const SICK = "email.send.resend";

interface System {
  nats: NatsServerHandle;
  router: TestRouter;
  gw: TestGateway;
  stop(): Promise<void>;
}

describe("route health and recommendation ids over HTTP", () => {
  let sys: System;
  let nc: NatsConnection;
  beforeAll(async () => {
    sys = await startTestSystem(async (stack) => {
      const nats = await stack.start(startNatsServer());
      const catalog = await stack.start(startTestCatalog({ catalogDir: FIXTURE_CATALOG_DIR }));
      const ledger = await stack.start(startTestLedger({ natsUrl: nats.url, apiKeys: `${KEY}:${USER}`, grants: { [USER]: 1_000 } }));
      const router = await stack.start(
        startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url }),
      );
      const gw = await stack.start(
        startTestGateway({ catalogAddress: catalog.address, ledgerAddress: ledger.address, routerAddress: router.address }),
      );
      return { nats, router, gw };
    });
    nc = await connect({ servers: sys.nats.url });
  });
  afterAll(async () => {
    await nc?.close();
    await sys?.stop();
  });

  const get = async (path: string) => {
    const res = await fetch(sys.gw.baseUrl + path);
    return { status: res.status, body: (await res.json()) as any };
  };
  /** A recommend as a client sends it: a 503/504 of a backend still warming up on a loaded machine is asked again. */
  const recommend = async (body: unknown) => {
    let answer: { status: number; body: any } | undefined;
    await waitFor(
      async () => {
        const res = await fetch(`${sys.gw.baseUrl}/domains/email/capabilities/send/recommend`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        answer = { status: res.status, body: (await res.json()) as any };
        return res.status !== 503 && res.status !== 504;
      },
      { timeoutMs: 15_000, intervalMs: 250, what: "a recommend answer other than 503/504" },
    );
    return answer!;
  };

  it("recommend answers a recommendationId valid for minutes, and a reason code for each candidate that cannot run", async () => {
    const { status, body } = await recommend({ optimizationPreferences: ["cost"] });
    expect(status).toBe(200);
    expect(validate("post", RECOMMEND, 200, body)).toEqual([]);
    expect(body.recommendationId).toMatch(/^rec_[0-9a-f-]{36}$/);
    expect(Date.parse(body.recommendationExpiresAt)).toBeGreaterThan(Date.now());
    const blocked = body.candidates.filter((c: any) => !c.canExecuteNow);
    expect(blocked.length).toBeGreaterThan(0);
    for (const c of blocked) expect(c.unavailableReasonCode).toEqual(expect.stringMatching(/^[a-z_]+$/));
    for (const c of body.candidates.filter((c: any) => c.canExecuteNow)) expect(c).not.toHaveProperty("unavailableReasonCode");

    // Each answer is kept under its own id.
    expect((await recommend({})).body.recommendationId).not.toBe(body.recommendationId);
  });

  it("recommend with maxPriceCredits marks dearer routes over_max_price; a bad one is a 400 naming the field", async () => {
    const { body } = await recommend({ maxPriceCredits: 10 });
    const dear = body.candidates.filter((c: any) => c.priceCredits > 10 && c.routeMode === "managed");
    expect(dear.length).toBeGreaterThan(0);
    for (const c of dear) {
      expect(c.canExecuteNow).toBe(false);
      expect(c.blockingRequirements).toContain("OVER_MAX_PRICE");
    }
    for (const bad of [-1, 2.5, "ten"]) {
      const refused = await recommend({ maxPriceCredits: bad });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: "INVALID_INPUT",
        error: expect.stringContaining("maxPriceCredits"),
        hint: expect.any(String),
      });
    }
  });

  it("the route list shows each route's health, and moves with the outcomes the executor publishes", async () => {
    // The first read of health may miss the gateway's short deadline while the router warms up: ask again, as a client would.
    let before: { status: number; body: any } | undefined;
    await waitFor(async () => (before = await get("/domains/email/capabilities/send/routes")).body.every((r: any) => "health" in r), {
      timeoutMs: 10_000,
      what: "the route list with health",
    });
    expect(before!.status).toBe(200);
    expect(validate("get", ROUTES, 200, before!.body)).toEqual([]);
    for (const route of before!.body) {
      expect(route.health).toEqual({
        successRate: null,
        p50LatencyMs: null,
        p95LatencyMs: null,
        breakerState: "closed",
        lastFailureAt: null,
        observations: 0,
      });
    }

    const failedAt = new Date();
    await publishOutcome(nc, { routeKey: SICK, ok: true, latencyMs: 300 });
    for (let i = 0; i < 5; i++) await publishOutcome(nc, { routeKey: SICK, ok: false, errorKind: "timeout", observedAt: failedAt });
    await sys.router.waitForOutcomes(6);

    // The gateway keeps health a couple of seconds: wait for the list to show the new figures.
    let after: { status: number; body: any } | undefined;
    await waitFor(
      async () =>
        (after = await get("/domains/email/capabilities/send/routes")).body.find((r: any) => r.routeKey === SICK)?.health?.observations > 0,
      {
        timeoutMs: 10_000,
        what: "the route list to show the published outcomes",
      },
    );
    expect(validate("get", ROUTES, 200, after!.body)).toEqual([]);
    expect(after!.body.find((r: any) => r.routeKey === SICK).health).toEqual({
      successRate: 1 / 6,
      p50LatencyMs: 300,
      p95LatencyMs: 300,
      breakerState: "open",
      lastFailureAt: failedAt.toISOString(),
      observations: 6,
    });
  });

  it("a route list of an unknown capability is a 404 ErrorResponse", async () => {
    const { status, body } = await get("/domains/email/capabilities/teleport/routes");
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: "CAPABILITY_NOT_FOUND", hint: expect.any(String) });
  });

  it("with the router down, the route list still answers, without health", async () => {
    await sys.router.stop();
    let listed: { status: number; body: any } | undefined;
    await waitFor(async () => (listed = await get("/domains/email/capabilities/send/routes")).body.every((r: any) => !("health" in r)), {
      timeoutMs: 10_000,
      what: "the route list to drop the health it can no longer read",
    });
    expect(listed!.status).toBe(200);
    expect(listed!.body.length).toBeGreaterThan(0);
    expect(validate("get", ROUTES, 200, listed!.body)).toEqual([]);
  });
});
