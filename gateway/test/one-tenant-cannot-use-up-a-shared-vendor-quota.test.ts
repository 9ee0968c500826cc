// A vendor plan with a fixed quota is shared by every user of its route, so one user at full rate
// must not use it up for the others: each user spends at most a share of it per window (past it: a
// 429 with Retry-After on that route, or another route), and the router ranks a route running out
// below its alternatives before the vendor refuses anyone. Over real HTTP, on a copy of the shipped
// catalog whose cheapest translation route gets a small quota: 6 requests a day, 3 per user.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { execute, newUser, settled, usage, type TestUser } from "./execute-helpers";

const QUOTA_ROUTE = "translation.text.translate.googletranslate";
const OTHER_ROUTE = "translation.text.translate.deepl";
const TEXT = { text: "Hallo Welt", targetLanguage: "en" };

/** The shipped catalog with a 6-a-day quota (3 per user) on the cheapest route of translation.text.translate. */
function catalogWithSmallQuota(): string {
  const dir = mkdtempSync(join(tmpdir(), "catalog-quota-"));
  cpSync(resolve(__dirname, "../../services/catalog/catalog"), dir, { recursive: true });
  const file = join(dir, "translation.yaml");
  const yaml = readFileSync(file, "utf8");
  const priors = "        priors: {successRate: 0.998, latencyMs: 400, quality: 0.88}\n";
  if (!yaml.includes(priors)) throw new Error("translation.yaml changed: update this test's quota insertion");
  writeFileSync(file, yaml.replace(priors, `${priors}        vendorQuota: {requests: 6, window: day, perUser: 3}\n`));
  return dir;
}

describe("one tenant cannot use up a vendor quota everyone shares", () => {
  let sys: BackedSystem;

  beforeAll(async () => {
    sys = await startBackedSystem({ catalogDir: catalogWithSmallQuota() });
  });
  afterAll(() => sys?.stop());

  const recommend = async (user: TestUser) => {
    const res = await sys.authed("/domains/translation/capabilities/text-translate/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(TEXT),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as any;
  };
  const candidate = (rec: any, routeKey: string) => rec.candidates.find((c: any) => c.routeKey === routeKey);
  const pinned = (user: TestUser) => execute(sys, user, "translation", "text-translate", { ...TEXT, routeKey: QUOTA_ROUTE });
  const vendorCalls = () => sys.sandbox.control.calls().filter((c) => c.provider === "googletranslate").length;

  it("one user at full rate gets its share only; the other keeps theirs, and the route ranks down before the vendor refuses", async () => {
    const [mallory, bob, carol] = await Promise.all([newUser(sys, 5_000), newUser(sys, 5_000), newUser(sys, 5_000)]);
    expect((await recommend(bob)).recommendedRouteKey).toBe(QUOTA_ROUTE);

    // Ten calls at once, pinned to the quota route: three go through, the rest are 429 with Retry-After, charging nothing.
    const burst = await Promise.all(Array.from({ length: 10 }, () => pinned(mallory)));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = burst.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect([r.status, r.body.code]).toEqual([429, "VENDOR_QUOTA_EXHAUSTED"]);
      expect(r.body.error).toContain("your share");
      expect(r.body.hint).toMatch(/another route/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(86_400);
    }
    expect(vendorCalls()).toBe(3);
    await settled(sys, mallory.userId);
    expect((await usage(sys, mallory)).filter((u) => u.creditsCharged > 0)).toHaveLength(3);

    // Past its share, mallory's unpinned executes go to the other route; the quota route is blocked for mallory alone.
    const forMallory = await recommend(mallory);
    expect(forMallory.recommendedRouteKey).toBe(OTHER_ROUTE);
    expect(candidate(forMallory, QUOTA_ROUTE)).toMatchObject({ canExecuteNow: false, unavailableReasonCode: "vendor_quota_exhausted" });
    const rerouted = await execute(sys, mallory, "translation", "text-translate", TEXT);
    expect([rerouted.status, rerouted.body.routeKey]).toEqual([200, OTHER_ROUTE]);

    // Bob's share is intact: 3 of 6 spent, the route is still first for him.
    expect((await recommend(bob)).recommendedRouteKey).toBe(QUOTA_ROUTE);
    expect((await pinned(bob)).status).toBe(200);
    // 4 of 6 spent: not yet running out (80 %).
    expect((await recommend(carol)).recommendedRouteKey).toBe(QUOTA_ROUTE);
    expect((await pinned(bob)).status).toBe(200);

    // 5 of 6 spent: ranked below the alternative for everyone, while it could still run (the vendor has refused nobody).
    const forCarol = await recommend(carol);
    expect(forCarol.recommendedRouteKey).toBe(OTHER_ROUTE);
    expect(candidate(forCarol, QUOTA_ROUTE)).toMatchObject({ canExecuteNow: true });
    expect(candidate(forCarol, QUOTA_ROUTE).reasons.join(" ")).toContain("running out");
    const unpinned = await execute(sys, carol, "translation", "text-translate", TEXT);
    expect([unpinned.status, unpinned.body.routeKey]).toEqual([200, OTHER_ROUTE]);
    expect(vendorCalls()).toBe(5);
  });
});
