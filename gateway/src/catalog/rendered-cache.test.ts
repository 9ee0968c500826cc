import { RenderedCatalogCache, render } from "./rendered-cache";

describe("RenderedCatalogCache", () => {
  it("loads once per key and version, and reloads after the version changes", async () => {
    let version = "v1";
    let loads = 0;
    const cache = new RenderedCatalogCache(async () => version, { refreshMs: 60_000, maxEntries: 10 });
    const load = async () => {
      loads++;
      return { catalogVersion: version, value: { version, loads } };
    };
    const first = await cache.get("/domains", load);
    const second = await cache.get("/domains", load);
    expect(second).toBe(first);
    expect(loads).toBe(1);

    version = "v2";
    cache.observe("v2");
    const third = await cache.get("/domains", load);
    expect(loads).toBe(2);
    expect(JSON.parse(third.body.toString())).toEqual({ version: "v2", loads: 2 });
    expect(third.etag).not.toBe(first.etag);
  });

  it("does not cache failures", async () => {
    const cache = new RenderedCatalogCache(async () => "v1", { refreshMs: 60_000, maxEntries: 10 });
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error("not found");
    };
    await expect(cache.get("/nope", failing)).rejects.toThrow();
    await expect(cache.get("/nope", failing)).rejects.toThrow();
    expect(calls).toBe(2);
  });

  it("renders a strong ETag that depends on the bytes", () => {
    expect(render({ a: 1 }, "v1").etag).toMatch(/^"[^W].*"$/);
    expect(render({ a: 1 }, "v1").etag).toBe(render({ a: 1 }, "v1").etag);
    expect(render({ a: 2 }, "v1").etag).not.toBe(render({ a: 1 }, "v1").etag);
  });

  it("keeps at most maxBytes of answers, the least recently read leaving first", async () => {
    const cache = new RenderedCatalogCache(async () => "v1", { refreshMs: 60_000, maxEntries: 100, maxBytes: 3 * 1_600 });
    const kilobyte = async () => ({ catalogVersion: "v1", value: "x".repeat(1_000) });
    await cache.get("/a", kilobyte);
    await cache.get("/b", kilobyte);
    await cache.get("/c", kilobyte);
    expect(cache.peek("/a")).toBeDefined();
    await cache.get("/d", kilobyte);
    expect([cache.peek("/a"), cache.peek("/b")].map(Boolean)).toEqual([true, false]);
    expect([cache.peek("/c"), cache.peek("/d")].map(Boolean)).toEqual([true, true]);
  });
});
