// Recommend over the catalog the product ships (not the fixture): every capability gets a full,
// honest answer — one candidate per route, scores in [0, 1], and "can run now" only where the
// capability and the route are live.
import { startNatsServer, type NatsServerHandle } from "@agentic/platform/testing";
import { startTestCatalog, type TestCatalog } from "../../../catalog/test/harness";
import { startTestLedger, type TestLedger } from "../../../ledger/test/harness";
import { startTestRouter, type TestRouter } from "../harness";

const USER = "user-shipped";

describe("recommend on the shipped catalog", () => {
  let nats: NatsServerHandle;
  let catalog: TestCatalog;
  let ledger: TestLedger;
  let router: TestRouter;
  beforeAll(async () => {
    nats = await startNatsServer();
    catalog = await startTestCatalog();
    ledger = await startTestLedger({ natsUrl: nats.url, grants: { [USER]: 1_000_000 } });
    router = await startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url });
  });
  afterAll(async () => {
    await router?.stop();
    await ledger?.stop();
    await catalog?.stop();
    await nats?.stop();
  });

  it("answers every capability of every domain", async () => {
    const { domains } = await catalog.call.listDomains({});
    let checked = 0;
    for (const { domainKey } of domains) {
      const { capabilities } = await catalog.call.listCapabilities({ domainKey });
      for (const cap of capabilities) {
        const { routes } = await catalog.call.listCapabilityRoutes({ domainKey, capabilityId: cap.capabilityId });
        const res = await router.client.recommend({ userId: USER, domainKey, capabilityId: cap.capabilityId, input: {} });
        expect(res.productKey).toBe(`${domainKey}.${cap.capabilityId}`);
        expect(res.candidates.map((c) => c.routeKey).sort()).toEqual(routes.map((r) => r.routeKey).sort());
        for (const c of res.candidates) {
          const route = routes.find((r) => r.routeKey === c.routeKey)!;
          expect(c.score).toBeGreaterThanOrEqual(0);
          expect(c.score).toBeLessThanOrEqual(1);
          expect(c.reasons.length).toBeGreaterThan(0);
          expect(c.canExecuteNow).toBe(c.blockingRequirements.length === 0);
          if (c.canExecuteNow) expect(cap.status === "live" && route.status === "live" && !route.executionGated).toBe(true);
        }
        expect(res.canExecuteNow).toBe(res.candidates[0]!.canExecuteNow);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
