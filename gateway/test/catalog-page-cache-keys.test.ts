// The gateway keeps each page of a catalog list under its path and the parameters that select it,
// in a fixed order: parameters that select nothing (junk), another order or a spelling of the same
// value share the real page's entry, so they cannot crowd real pages out of the bounded cache. Over
// real HTTP, the gateway's own catalog routes and cache, on a real catalog service.
import type { Server } from "node:http";
import express from "express";
import { createCatalogClient, type CatalogClient } from "@agentic/clients";
import { createLogger } from "@agentic/platform";
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { RenderedCatalogCache } from "../src/catalog/rendered-cache";
import { catalogRoutes } from "../src/routes/catalog";
import { catalogSearchRoutes } from "../src/routes/catalog-search";
import { errorHandler } from "../src/middleware/errors";

/** The router's search, never asked by these pages. */
const unreachable = (): never => {
  throw new Error("these pages do not search");
};

/** Kept answers: few, so one junk entry per request would evict the real page at once. */
const MAX_ENTRIES = 10;

describe("catalog page cache keys", () => {
  let catalog: TestCatalog;
  let client: CatalogClient;
  let cache: RenderedCatalogCache;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    catalog = await startTestCatalog();
    client = createCatalogClient(catalog.address);
    cache = new RenderedCatalogCache(async () => (await client.getCatalogVersion({})).catalogVersion, {
      refreshMs: 60_000,
      maxEntries: MAX_ENTRIES,
    });
    const app = express();
    app.use(catalogRoutes(client, cache));
    // No router: these pages filter without `q` (the router's search), which catalog-lists-page-and-search covers.
    app.use(catalogSearchRoutes(client, { findCapabilities: unreachable }, cache));
    app.use(errorHandler(createLogger("gateway-test", "silent")));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    client?.close();
    await catalog?.stop();
  });

  const get = async (pathAndQuery: string) => {
    const res = await fetch(origin + pathAndQuery);
    await res.arrayBuffer();
    return { status: res.status, etag: res.headers.get("etag"), link: res.headers.get("link") };
  };

  it("answers a page asked with junk parameters, or limit spelt another way, from the real page's entry, which stays", async () => {
    const real = await get("/domains?limit=5");
    expect(real.status).toBe(200);
    const kept = cache.peek("/domains?limit=5");
    expect(kept).toBeDefined();
    for (let i = 0; i < 3 * MAX_ENTRIES; i++) {
      const junk = await get(i % 2 === 0 ? `/domains?limit=5&junk=${i}` : `/domains?utm_source=${i}&limit=05`);
      expect([junk.status, junk.etag]).toEqual([200, real.etag]);
    }
    expect(cache.peek("/domains?limit=5")).toBe(kept);
    expect(cache.size).toBe(1);
    // The next page's URL is the canonical key of that page, without the junk it was asked with.
    const junkLink = (await get("/domains?junk=1&limit=5")).link;
    expect(junkLink).toBe(real.link);
    expect(real.link).toMatch(/^<\/domains\?limit=5&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
  });

  it("keeps one entry for a filtered page whatever the order of its parameters, and links the next page in canonical order", async () => {
    const before = cache.size;
    const first = await get("/capabilities?limit=3&status=live&maxPriceCredits=50");
    const again = await get("/capabilities?maxPriceCredits=50&status=live&limit=3");
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.etag).toBe(first.etag);
    expect(cache.size).toBe(before + 1);
    expect(cache.peek("/capabilities?status=live&maxPriceCredits=50&limit=3")).toBeDefined();
    expect(first.link).toMatch(/^<\/capabilities\?status=live&maxPriceCredits=50&limit=3&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    // Following the link is answered, and kept under the link's own key.
    const next = first.link!.slice(1, first.link!.indexOf(">"));
    expect((await get(next)).status).toBe(200);
    expect(cache.peek(next)).toBeDefined();
  });

  it("still refuses a parameter GET /capabilities does not know, so junk there is a 400, never kept", async () => {
    const before = cache.size;
    const res = await fetch(`${origin}/capabilities?limit=3&utm_source=x`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("INVALID_INPUT");
    expect(cache.size).toBe(before);
  });
});
