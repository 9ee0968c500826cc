import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { perplexityProvider } from "./perplexity";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(perplexityProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("Perplexity adapter (search.answer)", () => {
  it("builds a sonar chat completion with bounded tokens and the domain filter (excluded ones prefixed with -)", () => {
    expect(
      adapter.buildRequest(
        "search.answer",
        { query: "q", includeDomains: ["mpp.dev"], excludeDomains: ["spam.example"] },
        { baseUrl: "https://api.perplexity.ai", credentials: { apiKey: "pplx-1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.perplexity.ai/chat/completions",
      headers: { Authorization: "Bearer pplx-1" },
      body: {
        model: "sonar",
        messages: [{ role: "user", content: "q" }],
        max_tokens: 1000,
        search_domain_filter: ["mpp.dev", "-spam.example"],
      },
    });
    const many = Array.from({ length: 11 }, (_, i) => `d${i}.example`);
    expect(() =>
      adapter.buildRequest("search.answer", { query: "q", includeDomains: many, excludeDomains: many }, { baseUrl: "https://p" }),
    ).toThrow(expect.objectContaining({ kind: "invalid_input", blame: "input" }));
  });

  it("normalizes the answer and its sources like the other search.answer routes, trimmed to maxResults", () => {
    const body = {
      id: "c1",
      choices: [{ message: { role: "assistant", content: "A [1]" } }],
      citations: ["https://a", "https://b"],
      search_results: [
        { title: "A", url: "https://a", date: "2026-01-01" },
        { title: "B", url: "https://b" },
      ],
    };
    expect(adapter.parseResponse("search.answer", response(200, body), { query: "q", maxResults: 1 })).toEqual({
      status: "completed",
      providerMessageId: "c1",
      data: { answer: "A [1]", citations: [{ url: "https://a", title: "A", author: null, publishedDate: "2026-01-01" }] },
    });
    const bare = { choices: [{ message: { content: "B" } }], citations: ["https://c"] };
    expect(adapter.parseResponse("search.answer", response(200, bare), { query: "q" }).data).toEqual({
      answer: "B",
      citations: [{ url: "https://c", title: null, author: null, publishedDate: null }],
    });
    expect(() => adapter.parseResponse("search.answer", response(200, { choices: [] }), { query: "q" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() =>
      adapter.parseResponse("search.answer", response(401, { error: { message: "Invalid API key", type: "authentication_error" } }), {
        query: "q",
      }),
    ).toThrow(expect.objectContaining({ blame: "provider", vendorCode: "authentication_error" }));
  });

  it("answers on the direct API through the sandbox, honouring the domain filter", async () => {
    const { result } = await routes.execute("perplexity", "direct", "search.answer", {
      query: "What is the Machine Payments Protocol?",
      maxResults: 3,
      excludeDomains: ["en.wikipedia.org"],
    });
    expect(result.data.answer).toContain("Machine Payments Protocol");
    const urls = (result.data.citations as { url: string }[]).map((c) => c.url);
    expect(urls).toHaveLength(3);
    expect(urls.some((u) => u.includes("wikipedia"))).toBe(false);
  });
});
