import { register } from "prom-client";
import { exposeWalletCacheMetrics } from "./metrics";
import { WalletCache } from "./wallet/wallet-cache";

const view = { balanceCredits: 100, spendLimits: [] };
const scrape = async () => (await register.getMetricsAsJSON()).filter((m) => m.name.startsWith("router_wallet_"));
const valueOf = async (name: string, result?: string) =>
  (await scrape()).find((m) => m.name === name)!.values.find((v) => result === undefined || v.labels.result === result)?.value;

describe("the router's wallet cache metrics", () => {
  it("count hits, misses, bypassed reads and announcements, and say whether the cache is live", async () => {
    const cache = new WalletCache({ maxEntries: 10, maxAgeMs: 10_000 });
    const unexpose = exposeWalletCacheMetrics(cache);
    try {
      const load = async () => view;
      await cache.read({ userId: "u1" }, load); // not live yet: bypassed
      expect(await valueOf("router_wallet_cache_live")).toBe(0);
      cache.setLive(true);
      await cache.read({ userId: "u1" }, load); // miss, kept
      await cache.read({ userId: "u1" }, load); // hit
      await cache.read({ userId: "u1" }, load); // hit
      cache.invalidate("u1");
      expect(await valueOf("router_wallet_reads_total", "hit")).toBe(2);
      expect(await valueOf("router_wallet_reads_total", "miss")).toBe(1);
      expect(await valueOf("router_wallet_reads_total", "bypassed")).toBe(1);
      expect(await valueOf("router_wallet_announcements_total")).toBe(1);
      expect(await valueOf("router_wallet_cache_live")).toBe(1);
    } finally {
      unexpose();
    }
    // A stopped app's cache no longer counts.
    expect(await valueOf("router_wallet_reads_total", "hit")).toBe(0);
    expect(await valueOf("router_wallet_cache_live")).toBe(0);
  });
});
