// SKILL.md and llms.txt on a catalog several pages large, over real HTTP and a real catalog service:
// the snapshot they render is read in pages across domains (never two lists per domain), holds each
// live and gated capability with its executable routes cheapest first, exactly as the catalog's own
// lists have them, and the two documents share one read per catalog version.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { createCatalogClient, type CatalogClient } from "@agentic/clients";
import { generateTestCatalog, startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { RenderedCatalogCache } from "../src/catalog/rendered-cache";
import { agentDocsRoutes } from "../src/agent-docs/routes";
import { readCatalogSnapshot } from "../src/agent-docs/snapshot";

describe("the agent instructions' read of a large catalog", () => {
  let dir: string;
  let cat: TestCatalog;
  let client: CatalogClient;
  const calls = new Map<string, number>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "agent-docs-pages-"));
    generateTestCatalog(8, dir);
    cat = await startTestCatalog({ catalogDir: dir });
    const real = createCatalogClient(cat.address);
    // The real client, each call counted by method.
    client = new Proxy(real, {
      get: (target, method: string) => {
        const value = target[method as keyof CatalogClient];
        if (typeof value !== "function" || method === "close") return value;
        return (...args: unknown[]) => {
          calls.set(method, (calls.get(method) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown)(...args);
        };
      },
    });
  });
  afterAll(async () => {
    client?.close();
    await cat?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads pages across domains and keeps each capability with its executable routes, cheapest first", async () => {
    calls.clear();
    const snapshot = await readCatalogSnapshot(client);
    const domains = cat.catalog.listDomains();
    const capabilities = domains.flatMap((d) => cat.catalog.listCapabilities(d.domainKey)!);
    const routes = domains.flatMap((d) => cat.catalog.listDomainRoutes(d.domainKey)!);
    expect(capabilities.length).toBeGreaterThan(400);
    expect(Object.fromEntries(calls)).toEqual({
      listDomains: 1,
      filterRoutes: Math.ceil(routes.length / 200),
      filterCapabilities: Math.ceil(capabilities.length / 200),
      getContract: 1,
    });
    expect(snapshot.catalogVersion).toBe(cat.catalog.version);
    expect(snapshot.capabilities.map((c) => c.capabilityKey)).toEqual(capabilities.map((c) => c.capabilityKey));
    for (const c of snapshot.capabilities) {
      const own = routes.filter((r) => r.capabilityKey === c.capabilityKey && r.readiness?.executable === true);
      const expected = c.status === "live" ? own.map((r) => r.routeKey) : [];
      expect(c.routes.map((r) => r.routeKey).sort()).toEqual(expected.sort());
      const prices = c.routes.map((r) => r.priceCredits);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
    }
    expect(snapshot.capabilities.some((c) => c.routes.length > 1)).toBe(true);
  });

  it("serves SKILL.md and llms.txt from one read per catalog version", async () => {
    const cache = new RenderedCatalogCache(async () => (await client.getCatalogVersion({})).catalogVersion, {
      refreshMs: 60_000,
      maxEntries: 100,
    });
    const app = express();
    app.use("/api", agentDocsRoutes(client, cache));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      calls.clear();
      const [skill, llms] = await Promise.all([fetch(`${base}/SKILL.md`), fetch(`${base}/llms.txt`)]);
      expect([skill.status, llms.status]).toEqual([200, 200]);
      expect(await skill.text()).toContain("## Top live capabilities");
      expect(await llms.text()).toContain("## Top live capabilities");
      expect(calls.get("listDomains")).toBe(1);
      // Asked again: answered from the rendered documents, no read at all.
      calls.clear();
      expect((await fetch(`${base}/SKILL.md`)).status).toBe(200);
      expect((await fetch(`${base}/llms.txt`)).status).toBe(200);
      expect([...calls.keys()].filter((m) => m !== "getCatalogVersion")).toEqual([]);
    } finally {
      server.close();
    }
  });
});
