import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { tavilyProvider } from "./tavily";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(tavilyProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("Tavily adapter (search.web)", () => {
  it("builds POST /search with max_results and a basic general search, the bearer key only on direct routes", () => {
    expect(
      adapter.buildRequest(
        "search.web",
        { query: "q", count: 4 },
        { baseUrl: "https://api.tavily.com", credentials: { apiKey: "tvly-1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.tavily.com/search",
      headers: { Authorization: "Bearer tvly-1" },
      body: { query: "q", max_results: 4, search_depth: "basic", topic: "general" },
    });
    expect(adapter.buildRequest("search.web", { query: "q" }, { baseUrl: "https://t" })).toMatchObject({
      headers: {},
      body: { max_results: 10 },
    });
  });

  it("normalizes results like the other search.web routes; plan limits (432/433) are our account's", () => {
    const body = { results: [{ title: "T", url: "https://a", content: "C", score: 0.9 }, { title: "no url" }], request_id: "rq" };
    expect(adapter.parseResponse("search.web", response(200, body), { query: "q" })).toEqual({
      status: "completed",
      providerMessageId: "rq",
      data: { results: [{ title: "T", url: "https://a", snippet: "C", publishedAt: null }] },
    });
    expect(() => adapter.parseResponse("search.web", response(432, { detail: { error: "Plan limit exceeded" } }), { query: "q" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "provider", retryable: false }),
    );
    expect(() => adapter.parseResponse("search.web", response(400, { detail: { error: "Query is missing." } }), { query: "q" })).toThrow(
      expect.objectContaining({ blame: "input" }),
    );
  });

  it("searches on the direct API through the sandbox", async () => {
    const { result } = await routes.execute("tavily", "direct", "search.web", { query: "machine payments", count: 3 });
    expect(result.data.results).toHaveLength(3);
    expect(result.data.results).toContainEqual(
      expect.objectContaining({ url: "https://docs.example.com/machine-payments", snippet: expect.any(String) }),
    );
  });

  it("maps an injected rate limit to a retryable provider error", async () => {
    routes.sandbox().control.setFault({ provider: "tavily", mode: "fail", status: 429, count: 1 });
    await expect(routes.executeError("tavily", "direct", "search.web", { query: "q" })).resolves.toMatchObject({
      status: 429,
      retryable: true,
      blame: "provider",
    });
  });
});
