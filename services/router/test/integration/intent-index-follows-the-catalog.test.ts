// The intent index behind RouteTask follows the catalog: built from the catalog cache's listing of
// one version, reused while the version stays, rebuilt when a rollout changes the catalog's intent
// data (as soon as the version is seen, not by a query), and never built under a query's deadline: a
// query that cannot wait for it is told to retry, or answered by the version before, over real catalog services.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError, createLogger } from "@agentic/platform";
import { CatalogCache, type CatalogClient, type CatalogSource } from "@agentic/clients";
import { DEFAULT_CATALOG_DIR, startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { waitFor } from "@agentic/testing";
import { IntentIndexHolder } from "../../src/intent/intent-index-holder";

describe("IntentIndexHolder", () => {
  let before: TestCatalog;
  let after: TestCatalog;
  let dir: string;
  let current: CatalogClient;
  const source: CatalogSource = {
    getCatalogVersion: (req, opts) => current.getCatalogVersion(req, opts),
    listDomains: (req, opts) => current.listDomains(req, opts),
    listCapabilityEntries: (req, opts) => current.listCapabilityEntries(req, opts),
    getCapability: (req, opts) => current.getCapability(req, opts),
    listCapabilityRoutes: (req, opts) => current.listCapabilityRoutes(req, opts),
    getContract: (req, opts) => current.getContract(req, opts),
  };

  beforeAll(async () => {
    // The rollout teaches email.send a word no capability knew.
    dir = mkdtempSync(join(tmpdir(), "router-intent-"));
    cpSync(DEFAULT_CATALOG_DIR, dir, { recursive: true });
    const email = join(dir, "email.yaml");
    const taught = readFileSync(email, "utf8")
      .replace('synonyms: ["email",', 'synonyms: ["carrierpigeon", "email",')
      .replace('- "tell Ana the invoice is attached"', '- "carrierpigeon Ana that the invoice is attached"');
    writeFileSync(email, taught);
    [before, after] = await Promise.all([startTestCatalog(), startTestCatalog({ catalogDir: dir })]);
  });
  afterAll(async () => {
    await before?.stop();
    await after?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const logger = createLogger("router-test", "silent");

  it("indexes every capability of the current version, of every status, and rebuilds when the version changes", async () => {
    expect(after.catalog.version).not.toBe(before.catalog.version);
    current = before.call;
    const cache = new CatalogCache(source, { refreshMs: 50, logger });
    cache.start();
    try {
      const holder = new IntentIndexHolder(cache, logger);
      const first = await holder.get();
      expect(first.index.catalogVersion).toBe(before.catalog.version);
      const every = before.catalog.listDomains().flatMap((d) => before.catalog.listCapabilities(d.domainKey) ?? []);
      expect(every.some((c) => c.status !== "live" && c.status !== "recommend_only")).toBe(true);
      expect(first.index.size).toBe(every.length);
      expect(first.domainKeys.has("email")).toBe(true);
      expect((await holder.get()).index).toBe(first.index);
      const task = { task: "carrierpigeon", limit: 3 };
      expect(first.index.query(task)).toMatchObject({ abstained: true, matches: [] });

      current = after.call;
      await waitFor(() => cache.catalogVersion === after.catalog.version, { timeoutMs: 5_000, what: "the new catalog version" });
      const rebuilt = await holder.get();
      expect(rebuilt.index).not.toBe(first.index);
      expect(rebuilt.index.catalogVersion).toBe(after.catalog.version);
      const answer = rebuilt.index.query(task);
      expect([answer.abstained, answer.matches[0]?.capabilityKey]).toEqual([false, "email.send"]);
    } finally {
      cache.stop();
    }
  });

  it("builds each version's index when the version is seen, and never under a query's deadline", async () => {
    current = before.call;
    const cache = new CatalogCache(source, { refreshMs: 50, logger });
    const holder = new IntentIndexHolder(cache, logger);
    cache.onNewVersion(() => holder.prepare());
    // Before anything is built, a query that cannot wait is told to retry; the build goes on without it.
    const refused = await holder.get({ deadlineMs: 1 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: "unavailable", details: { retryAfterSeconds: expect.any(Number) } });
    const built = await holder.get();
    expect(built.index.catalogVersion).toBe(before.catalog.version);

    cache.start();
    try {
      // The rollout: the poll sees the new version and the index is rebuilt with no query asking.
      current = after.call;
      const ready = async () => (await holder.get({ deadlineMs: 1 })).index.catalogVersion === after.catalog.version;
      await waitFor(ready, { timeoutMs: 10_000, what: "the new version's index, built by the poll" });
      expect((await holder.get({ deadlineMs: 1 })).index.query({ task: "carrierpigeon", limit: 3 }).abstained).toBe(false);
    } finally {
      cache.stop();
    }
  });
});
