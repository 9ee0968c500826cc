// Recommend over the catalog the product ships (not the fixture): every capability gets a full,
// honest answer — one candidate per route, scores in [0, 1], and "can run now" only where the
// capability and the route are live.
import { DEFAULT_CATALOG_DIR } from "@agentic/catalog/testing";
import { startRouterSystem, type RouterSystem } from "../system";

const USER = "user-shipped";

describe("recommend on the shipped catalog", () => {
  let sys: RouterSystem;
  beforeAll(async () => {
    sys = await startRouterSystem({ catalogDir: DEFAULT_CATALOG_DIR, grants: { [USER]: 1_000_000 } });
  });
  afterAll(() => sys?.stop());

  it("answers every capability of every domain", async () => {
    const { domains } = await sys.catalog.call.listDomains({});
    let checked = 0;
    for (const { domainKey } of domains) {
      const { capabilities } = await sys.catalog.call.listCapabilities({ domainKey });
      for (const cap of capabilities) {
        const { routes } = await sys.catalog.call.listCapabilityRoutes({ domainKey, capabilityId: cap.capabilityId });
        const res = await sys.router.client.recommend({
          userId: USER,
          domainKey,
          capabilityId: cap.capabilityId,
          input: {},
          optimizationPreferences: [],
        });
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
