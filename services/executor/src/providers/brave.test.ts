import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { braveProvider } from "./brave";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(braveProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const braveError = (status: number, code: string) => ({ type: "ErrorResponse", error: { id: "e1", status, code, detail: "d", meta: {} } });

describe("Brave adapter (search.web, search.news, search.images)", () => {
  it("builds GET /res/v1/<kind>/search with q and count, the token only on direct routes", () => {
    expect(
      adapter.buildRequest(
        "search.web",
        { query: "x402 rails", count: 5 },
        { baseUrl: "https://api.search.brave.com", credentials: { apiKey: "bk" } },
      ),
    ).toEqual({
      method: "GET",
      url: "https://api.search.brave.com/res/v1/web/search?q=x402+rails&count=5",
      headers: { Accept: "application/json", "X-Subscription-Token": "bk" },
    });
    expect(adapter.buildRequest("search.news", { query: "q", freshness: "week" }, { baseUrl: "https://b" })).toEqual({
      method: "GET",
      url: "https://b/res/v1/news/search?q=q&freshness=pw",
      headers: { Accept: "application/json" },
    });
    expect(adapter.buildRequest("search.images", { query: "q" }, { baseUrl: "https://b" }).url).toBe(
      "https://b/res/v1/images/search?q=q&safesearch=strict",
    );
    expect(() => adapter.buildRequest("search.news", { query: "q", freshness: "hour" }, { baseUrl: "https://b" })).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "freshness" }),
    );
    expect(() => adapter.buildRequest("search.answer", { query: "q" }, { baseUrl: "https://b" })).toThrow(
      expect.objectContaining({ kind: "unsupported_capability" }),
    );
  });

  it("normalizes web, news and image results", () => {
    const web = { type: "search", web: { results: [{ title: "T", url: "https://a", description: "S", page_age: "2026-01-01T00:00:00" }] } };
    expect(adapter.parseResponse("search.web", response(200, web), { query: "q" }).data).toEqual({
      results: [{ title: "T", url: "https://a", snippet: "S", publishedAt: "2026-01-01T00:00:00" }],
    });
    expect(adapter.parseResponse("search.web", response(200, { type: "search", query: { original: "q" } }), { query: "q" }).data).toEqual({
      results: [],
    });
    const news = {
      type: "news",
      results: [{ title: "N", url: "https://n", description: "D", age: "1 hour ago", meta_url: { hostname: "n.com" } }],
    };
    expect(adapter.parseResponse("search.news", response(200, news), { query: "q" }).data).toEqual({
      results: [{ title: "N", url: "https://n", snippet: "D", publishedAt: null, source: "n.com", age: "1 hour ago" }],
    });
    const images = {
      type: "images",
      results: [
        { title: "I", url: "https://page", source: "page.com", thumbnail: { src: "https://t" }, properties: { url: "https://i.jpg" } },
      ],
    };
    expect(adapter.parseResponse("search.images", response(200, images), { query: "q" }).data).toEqual({
      results: [{ title: "I", imageUrl: "https://i.jpg", thumbnailUrl: "https://t", sourceUrl: "https://page", source: "page.com" }],
    });
    expect(() => adapter.parseResponse("search.news", response(200, { type: "news" }), { query: "q" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("blames our subscription for token and plan errors even on a 422, the caller for a bad parameter", () => {
    expect(() => adapter.parseResponse("search.web", response(422, braveError(422, "SUBSCRIPTION_TOKEN_INVALID")), { query: "q" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "provider", vendorCode: "SUBSCRIPTION_TOKEN_INVALID" }),
    );
    expect(() => adapter.parseResponse("search.web", response(422, braveError(422, "VALIDATION")), { query: "q" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "input", vendorCode: "VALIDATION" }),
    );
    expect(() => adapter.parseResponse("search.web", response(429, braveError(429, "RATE_LIMITED")), { query: "q" })).toThrow(
      expect.objectContaining({ retryable: true, blame: "provider" }),
    );
  });

  it("searches the web, news and images over the direct API of the sandbox", async () => {
    const web = await routes.execute("brave", "direct", "search.web", { query: "machine payments", count: 3 });
    expect(web.res.headers["x-ratelimit-remaining"]).toBeDefined();
    expect(web.result.data.results).toHaveLength(3);
    expect(web.result.data.results).toContainEqual(expect.objectContaining({ url: "https://example.com/machine-payments/1" }));
    const news = await routes.execute("brave", "direct", "search.news", { query: "machine payments", freshness: "day" });
    expect(news.result.data.results).toContainEqual(expect.objectContaining({ source: "news.example.com" }));
    expect(routes.sandbox().control.calls("brave").at(-1)?.query).toMatchObject({ freshness: "pd" });
    const images = await routes.execute("brave", "direct", "search.images", { query: "machine payments", count: 2 });
    expect(images.result.data.results).toEqual([
      expect.objectContaining({ imageUrl: "https://photos.example.com/machine-payments/1.jpg" }),
      expect.objectContaining({ imageUrl: "https://photos.example.com/machine-payments/2.jpg" }),
    ]);
  });

  it("maps an injected outage to a retryable provider error", async () => {
    routes.sandbox().control.setFault({ provider: "brave", mode: "5xx", count: 1 });
    await expect(routes.executeError("brave", "direct", "search.web", { query: "q" })).resolves.toMatchObject({
      kind: "http_5xx",
      retryable: true,
      blame: "provider",
    });
  });
});
