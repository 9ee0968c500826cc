import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { FirecrawlAdapter } from "./firecrawl";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = new FirecrawlAdapter();
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const input = { url: "https://example.com/docs", fields: ["title", "pricing", "authentication"] };

describe("Firecrawl adapter (web.extract)", () => {
  it("builds POST /v2/scrape with a json format whose schema has one property per field", () => {
    expect(adapter.buildRequest("web.extract", input, { baseUrl: "https://api.firecrawl.dev", credentials: { apiKey: "fc-1" } })).toEqual({
      method: "POST",
      url: "https://api.firecrawl.dev/v2/scrape",
      headers: { Authorization: "Bearer fc-1" },
      body: {
        url: "https://example.com/docs",
        formats: [
          {
            type: "json",
            schema: {
              type: "object",
              properties: { title: { type: "string" }, pricing: { type: "string" }, authentication: { type: "string" } },
            },
          },
        ],
        onlyMainContent: true,
      },
    });
  });

  it("returns exactly the requested fields, null when missing; maps {success: false, error}", () => {
    const body = { success: true, data: { json: { title: "Docs", pricing: "Usage based", extra: "dropped" }, metadata: {} } };
    expect(adapter.parseResponse("web.extract", response(200, body), input).data).toEqual({
      title: "Docs",
      pricing: "Usage based",
      authentication: null,
    });
    expect(() => adapter.parseResponse("web.extract", response(402, { success: false, error: "Payment required" }), input)).toThrow(
      expect.objectContaining({ blame: "provider", retryable: false }),
    );
    expect(() => adapter.parseResponse("web.extract", response(200, { success: false }), input)).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("uses the caller's schema when given, and needs fields or a schema", () => {
    const schema = {
      type: "object",
      properties: { price: { type: "number" }, plans: { type: "array", items: { type: "string" } } },
      required: ["price"],
    };
    expect(adapter.buildRequest("web.extract", { url: "https://example.com", schema }, { baseUrl: "https://x" }).body).toMatchObject({
      formats: [{ type: "json", schema }],
    });
    expect(
      adapter.parseResponse("web.extract", response(200, { success: true, data: { json: { price: 9, other: 1 } } }), {
        url: "https://example.com",
        schema,
      }).data,
    ).toEqual({ price: 9, plans: null });
    expect(() => adapter.buildRequest("web.extract", { url: "https://example.com" }, { baseUrl: "https://x" })).toThrow(/fields.*schema/);
  });

  it("extracts over MPP through the sandbox", async () => {
    const { res, result } = await routes.execute("firecrawl", "mpp", "web.extract", input);
    expect(res.payment?.settlement).toBe("settled");
    expect(Object.keys(result.data)).toEqual(["title", "pricing", "authentication"]);
    expect(result.data.pricing).toBe("pricing of example.com");
  });

  it("reports a bad URL as the caller's problem", async () => {
    expect(await routes.executeError("firecrawl", "mpp", "web.extract", { url: "ftp://example.com", fields: ["title"] })).toMatchObject({
      kind: "http_4xx",
      status: 400,
      blame: "input",
    });
  });
});

describe("Firecrawl adapter (web.scrape, web.map)", () => {
  it("builds /v2/scrape with the asked formats (markdown by default) and waitFor, /v2/map with search", () => {
    const ctx = { baseUrl: "https://api.firecrawl.dev", credentials: { apiKey: "fc-1" } };
    expect(adapter.buildRequest("web.scrape", { url: "https://example.com", formats: ["html", "links"], waitForMs: 500 }, ctx)).toEqual({
      method: "POST",
      url: "https://api.firecrawl.dev/v2/scrape",
      headers: { Authorization: "Bearer fc-1" },
      body: { url: "https://example.com", formats: ["html", "links"], onlyMainContent: true, waitFor: 500 },
    });
    expect(adapter.buildRequest("web.scrape", { url: "https://example.com" }, { baseUrl: "https://x" }).body).toMatchObject({
      formats: ["markdown"],
    });
    expect(() =>
      adapter.buildRequest("web.scrape", { url: "https://example.com", formats: ["screenshot"] }, { baseUrl: "https://x" }),
    ).toThrow(expect.objectContaining({ kind: "invalid_input", field: "formats" }));
    expect(adapter.buildRequest("web.map", { url: "https://example.com", search: "docs" }, ctx)).toEqual({
      method: "POST",
      url: "https://api.firecrawl.dev/v2/map",
      headers: { Authorization: "Bearer fc-1" },
      body: { url: "https://example.com", search: "docs" },
    });
  });

  it("returns the asked formats with the page metadata, and map links (objects or v1 strings)", () => {
    const body = {
      success: true,
      data: { markdown: "# T", html: "<h1>T</h1>", metadata: { title: "T", sourceURL: "https://e", statusCode: 200 } },
    };
    expect(adapter.parseResponse("web.scrape", response(200, body), { url: "https://e", formats: ["markdown"] }).data).toEqual({
      markdown: "# T",
      metadata: { title: "T", description: null, url: "https://e", statusCode: 200 },
    });
    expect(() => adapter.parseResponse("web.scrape", response(200, body), { url: "https://e", formats: ["links"] })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(
      adapter.parseResponse("web.map", response(200, { success: true, links: [{ url: "https://e/a", title: "A" }, "https://e/b", 3] }), {
        url: "https://e",
      }).data,
    ).toEqual({
      links: [
        { url: "https://e/a", title: "A", description: null },
        { url: "https://e/b", title: null, description: null },
      ],
    });
    expect(() =>
      adapter.parseResponse("web.map", response(429, { success: false, error: "Rate limit exceeded" }), { url: "https://e" }),
    ).toThrow(expect.objectContaining({ kind: "http_4xx", retryable: true, blame: "provider" }));
  });

  it("scrapes on the direct API and over MPP through the sandbox", async () => {
    const direct = await routes.execute("firecrawl", "direct", "web.scrape", {
      url: "https://example.com/docs",
      formats: ["markdown", "links"],
    });
    expect(direct.result.data).toMatchObject({
      markdown: expect.stringContaining("Content of https://example.com/docs"),
      links: expect.arrayContaining(["https://example.com/pricing"]),
      metadata: { title: "example.com docs", statusCode: 200 },
    });
    const paid = await routes.execute("firecrawl", "mpp", "web.scrape", { url: "https://example.com", formats: ["html"], waitForMs: 100 });
    expect(paid.res.payment?.settlement).toBe("settled");
    expect(paid.result.data.html).toContain("<h1>example.com home</h1>");
  });

  it("maps a site on the direct API through the sandbox, search matches first", async () => {
    const { result } = await routes.execute("firecrawl", "direct", "web.map", { url: "https://example.com", search: "auth" });
    const links = result.data.links as { url: string }[];
    expect(links[0]?.url).toBe("https://example.com/docs/auth");
    expect(links.map((l) => l.url)).toContain("https://example.com/pricing");
  });
});
