// The vendor quota counters every executor replica takes from (NATS KV, compare-and-set): replicas
// racing on one route never let a user past its share nor everyone past the quota, and a request
// refused for the whole quota does not cost the user a unit of its share.
import { connect, DiscardPolicy, type NatsConnection } from "nats";
import {
  openVendorQuotaBuckets,
  readVendorQuota,
  takeVendorQuota,
  VENDOR_QUOTA_BUCKET_MAX_BYTES,
  type VendorQuotaTerms,
} from "@agentic/platform";
import { startNatsServer, type NatsServerHandle } from "@agentic/testing";

const ROUTE = "finance.fx.rate.openexchangerates";
const NOW = Date.parse("2026-11-29T12:00:00Z");

describe("vendor quota counters across replicas", () => {
  let nats: NatsServerHandle;
  let replicas: NatsConnection[];

  beforeAll(async () => {
    nats = await startNatsServer();
    replicas = await Promise.all([1, 2, 3].map(() => connect({ servers: nats.url })));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((nc) => nc.close()));
    await nats?.stop();
  });

  it("are bounded buckets that drop their oldest counters when full, whoever created them first", async () => {
    // A router (reads only) may create them before any executor; the executor brings them to their limits.
    await openVendorQuotaBuckets(replicas[0]!, { replicas: 1 });
    const buckets = await openVendorQuotaBuckets(replicas[1]!, { replicas: 1, ensureConfig: true });
    for (const window of ["minute", "day", "month"] as const) {
      const { config } = (await buckets[window].status()).streamInfo;
      expect([config.discard, config.max_bytes]).toEqual([DiscardPolicy.Old, VENDOR_QUOTA_BUCKET_MAX_BYTES[window]]);
    }
  });

  it("three replicas taking at once grant a user exactly its share, and everyone exactly the quota", async () => {
    const buckets = await Promise.all(replicas.map((nc) => openVendorQuotaBuckets(nc, { replicas: 1 })));
    const terms: VendorQuotaTerms = { requests: 12, window: "day", perUserRequests: 5 };
    const take = (userId: string, i: number) => takeVendorQuota(buckets[i % 3]!, ROUTE, userId, terms, NOW);

    const hog = await Promise.all(Array.from({ length: 30 }, (_, i) => take("hog", i)));
    expect(hog.filter((t) => t.ok)).toHaveLength(5);
    expect(hog.find((t) => !t.ok)).toEqual({ ok: false, scope: "user", resetAtMs: Date.parse("2026-11-30T00:00:00Z") });

    const others = await Promise.all(["ann", "bob"].flatMap((u) => Array.from({ length: 8 }, (_, i) => take(u, i))));
    expect(others.filter((t) => t.ok)).toHaveLength(7);
    expect(others.filter((t) => !t.ok && t.scope === "route").length).toBeGreaterThan(0);

    const seen = await readVendorQuota(buckets[0]!, ROUTE, "ann", terms, NOW);
    const bob = await readVendorQuota(buckets[1]!, ROUTE, "bob", terms, NOW);
    expect(seen.usedTotal).toBe(12);
    // A refusal for the whole quota gave the user's unit back: the users' counts add up to the total.
    expect(5 + seen.usedByUser + bob.usedByUser).toBe(12);
    // The next window starts again.
    expect(await takeVendorQuota(buckets[2]!, ROUTE, "ann", terms, Date.parse("2026-11-30T00:00:01Z"))).toEqual({ ok: true });
  });
});
