// The catalog cache over real catalog services: answers are cached per catalog version, a new
// version (a catalog rollout) is noticed by the poll, misses keep the catalog's codes, and cached
// entries keep being served while the catalog is down.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError, createLogger } from "@agentic/platform";
import { CatalogCache, createCatalogClient, type CatalogClient, type CatalogSource } from "@agentic/clients";
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { waitFor } from "@agentic/testing";
import { FIXTURE_CATALOG_DIR } from "../system";

describe("CatalogCache", () => {
  let before: TestCatalog;
  let after: TestCatalog;
  let dir: string;
  let current: CatalogClient;
  /** GetCapability calls by "domain/capability". */
  const getCapabilityCalls = new Map<string, number>();
  const callsOf = (key: string) => getCapabilityCalls.get(key) ?? 0;
  /** ListCapabilityEntries calls from offset 0: one whole read of the catalog each. */
  let wholeReads = 0;
  let dead: CatalogClient;

  // Stands for the catalog address while a rollout swaps the instances behind it.
  const source: CatalogSource = {
    getCatalogVersion: (req, opts) => current.getCatalogVersion(req, opts),
    listDomains: (req, opts) => current.listDomains(req, opts),
    listCapabilityEntries: (req, opts) => {
      if (req.offset === 0) wholeReads++;
      return current.listCapabilityEntries(req, opts);
    },
    getCapability: (req, opts) => {
      const key = `${req.domainKey}/${req.capabilityId}`;
      getCapabilityCalls.set(key, callsOf(key) + 1);
      return current.getCapability(req, opts);
    },
    listCapabilityRoutes: (req, opts) => current.listCapabilityRoutes(req, opts),
    getContract: (req, opts) => current.getContract(req, opts),
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "router-catalog-"));
    cpSync(FIXTURE_CATALOG_DIR, dir, { recursive: true });
    const email = join(dir, "email.yaml");
    writeFileSync(email, readFileSync(email, "utf8").replace("priceCredits: 10\n", "priceCredits: 11\n"));
    before = await startTestCatalog({ catalogDir: FIXTURE_CATALOG_DIR });
    after = await startTestCatalog({ catalogDir: dir });
    dead = createCatalogClient("127.0.0.1:9", 300);
  });
  afterAll(async () => {
    dead?.close();
    await before?.stop();
    await after?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("caches per version, notices a new version, and serves the cache while the catalog is down", async () => {
    expect(after.catalog.version).not.toBe(before.catalog.version);
    current = before.call;
    const cache = new CatalogCache(source, { refreshMs: 50, logger: createLogger("router-test", "silent") });
    cache.start();
    try {
      const first = await cache.capability("email", "send");
      expect(first.catalogVersion).toBe(before.catalog.version);
      expect(first.routes.find((r) => r.routeKey === "email.send.resend")?.startingCostCredits).toBe(10);
      const calls = callsOf("email/send");
      expect(await cache.capability("email", "send")).toBe(first);
      expect(callsOf("email/send")).toBe(calls);

      current = after.call;
      await waitFor(() => cache.catalogVersion === after.catalog.version, { timeoutMs: 5_000, what: "the new catalog version" });
      const fresh = await cache.capability("email", "send");
      expect(fresh.catalogVersion).toBe(after.catalog.version);
      expect(fresh.routes.find((r) => r.routeKey === "email.send.resend")?.startingCostCredits).toBe(11);

      current = dead;
      expect(await cache.capability("email", "send")).toBe(fresh);
      // What a cache has not read (here a new one's first call) is UNAVAILABLE while the catalog is down.
      const empty = new CatalogCache(source, { refreshMs: 60_000, logger: createLogger("router-test", "silent") });
      const down = await empty.capability("geo", "time-current").catch((e) => e);
      expect(down).toBeInstanceOf(AppError);
      expect(down).toMatchObject({ kind: "unavailable", code: "UNAVAILABLE" });
      expect(down.message).not.toContain("127.0.0.1");
    } finally {
      cache.stop();
    }
  });

  it("passes the catalog's NOT_FOUND code and hint through, and does not cache misses", async () => {
    current = before.call;
    const cache = new CatalogCache(source, { refreshMs: 60_000, logger: createLogger("router-test", "silent") });
    const calls = callsOf("email/teleport");
    for (let i = 0; i < 2; i++) {
      const err = await cache.capability("email", "teleport").catch((e) => e);
      expect(err).toMatchObject({ kind: "not_found", code: "CAPABILITY_NOT_FOUND" });
      expect(err.hint).not.toBe("");
    }
    expect(callsOf("email/teleport")).toBe(calls + 2);
  });

  it("reads a new version whole when it sees it, so no capability's first call waits for the catalog", async () => {
    current = after.call;
    const cache = new CatalogCache(source, { refreshMs: 60_000, logger: createLogger("router-test", "silent") });
    await cache.refresh();
    const before = new Map(getCapabilityCalls);
    const domains = (await after.call.listDomains({})).domains;
    for (const { domainKey } of domains) {
      for (const { capabilityId } of (await after.call.listCapabilities({ domainKey })).capabilities) {
        expect((await cache.capability(domainKey, capabilityId)).catalogVersion).toBe(after.catalog.version);
      }
    }
    expect(domains.length).toBeGreaterThan(1);
    expect(new Map(getCapabilityCalls)).toEqual(before);
  });

  it("keeps at most maxEntries capabilities, the least recently used leaving first, and reads none ahead of a catalog past it", async () => {
    current = after.call;
    const cache = new CatalogCache(source, { refreshMs: 60_000, logger: createLogger("router-test", "silent"), maxEntries: 3 });
    const calls = () => [...getCapabilityCalls.values()].reduce((a, b) => a + b, 0);
    const before = calls();
    await cache.refresh();
    expect(calls()).toBe(before);
    const keys: Array<[string, string]> = [];
    for (const { domainKey } of (await after.call.listDomains({})).domains) {
      for (const { capabilityId } of (await after.call.listCapabilities({ domainKey })).capabilities) keys.push([domainKey, capabilityId]);
    }
    expect(keys.length).toBeGreaterThanOrEqual(4);
    for (const [d, c] of keys.slice(0, 4)) await cache.capability(d, c);
    expect(cache.size).toBe(3);
    // The first read left when the fourth came in; reading the second again kept it the most recent.
    const [first, second] = keys as [[string, string], [string, string]];
    const beforeSecond = callsOf(second.join("/"));
    await cache.capability(...second);
    expect(callsOf(second.join("/"))).toBe(beforeSecond);
    const beforeFirst = callsOf(first.join("/"));
    await cache.capability(...first);
    expect(callsOf(first.join("/"))).toBe(beforeFirst + 1);
    expect(cache.size).toBe(3);
  });

  it("polls an unchanged catalog with GetCatalogVersion alone: the entries are read once per version", async () => {
    current = before.call;
    const cache = new CatalogCache(source, { refreshMs: 60_000, logger: createLogger("router-test", "silent") });
    const readBefore = wholeReads;
    await cache.refresh();
    expect(wholeReads).toBe(readBefore + 1);
    for (let i = 0; i < 3; i++) await cache.refresh();
    expect(wholeReads).toBe(readBefore + 1);
    expect(cache.catalogVersion).toBe(before.catalog.version);

    current = after.call;
    await cache.refresh();
    expect(cache.catalogVersion).toBe(after.catalog.version);
    expect(wholeReads).toBe(readBefore + 2);
  });
});
