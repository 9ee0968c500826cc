import type { RailResponse } from "../domain/rail-port";
import { exaProvider } from "./exa";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter = providerAdapter(exaProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("Exa adapter (search.answer)", () => {
  it("builds POST /answer, with x-api-key only on direct routes", () => {
    expect(
      adapter.buildRequest("search.answer", { query: "q" }, { baseUrl: "https://api.exa.ai", credentials: { apiKey: "exa_1" } }),
    ).toEqual({ method: "POST", url: "https://api.exa.ai/answer", headers: { "x-api-key": "exa_1" }, body: { query: "q", text: false } });
    expect(adapter.buildRequest("search.answer", { query: "q" }, { baseUrl: "https://exa.mpp.example" }).headers).toEqual({});
    expect(() => adapter.buildRequest("search.answer", { query: "" }, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
  });

  it("refuses the domain filters it does not send yet, naming the field, rather than dropping them", () => {
    for (const field of ["includeDomains", "excludeDomains"]) {
      expect(() => adapter.buildRequest("search.answer", { query: "q", [field]: ["mpp.dev"] }, { baseUrl: "https://x" })).toThrow(
        expect.objectContaining({ kind: "invalid_input", blame: "input", field, message: expect.stringContaining("not supported") }),
      );
    }
  });

  it("normalizes answer and citations, trimmed to maxResults; maps {error, tag}", () => {
    const body = {
      requestId: "r1",
      answer: "A",
      citations: [
        { id: "u1", url: "https://a", title: "A", author: null, publishedDate: "2026-01-01" },
        { url: "https://b", title: "B", text: "snip" },
      ],
    };
    expect(adapter.parseResponse("search.answer", response(200, body), { query: "q", maxResults: 1 })).toMatchObject({
      status: "completed",
      providerMessageId: "r1",
      data: { answer: "A", citations: [{ url: "https://a", title: "A", author: null, publishedDate: "2026-01-01" }] },
    });
    expect(() =>
      adapter.parseResponse("search.answer", response(400, { requestId: "r", error: "query is required", tag: "INVALID_REQUEST_BODY" }), {
        query: "q",
      }),
    ).toThrow(expect.objectContaining({ vendorCode: "INVALID_REQUEST_BODY", blame: "input" }));
  });

  it("answers over MPP through the sandbox", async () => {
    const { res, result } = await routes.execute("exa", "mpp", "search.answer", { query: "who settles x402 payments", maxResults: 2 });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "5000", settlement: "settled" });
    expect(result.data.answer).toContain("who settles x402 payments");
    expect(result.data.citations).toHaveLength(2);
  });

  it("maps an injected vendor outage to a retryable provider error, unpaid", async () => {
    routes.sandbox().control.setFault({ provider: "exa", mode: "5xx", count: 1 });
    const err = await routes.executeError("exa", "mpp", "search.answer", { query: "q" });
    expect(err).toMatchObject({ kind: "http_5xx", status: 503, retryable: true, blame: "provider" });
    expect(
      routes
        .sandbox()
        .control.calls("exa")
        .map((c) => c.settled),
    ).toEqual([false, false]);
  });
});

describe("Exa adapter (search.web)", () => {
  it("builds POST /search with numResults and highlights", () => {
    expect(
      adapter.buildRequest("search.web", { query: "q", count: 3 }, { baseUrl: "https://api.exa.ai", credentials: { apiKey: "exa_1" } }),
    ).toEqual({
      method: "POST",
      url: "https://api.exa.ai/search",
      headers: { "x-api-key": "exa_1" },
      body: { query: "q", numResults: 3, contents: { highlights: true } },
    });
    expect(adapter.buildRequest("search.web", { query: "q" }, { baseUrl: "https://x" }).body).toMatchObject({ numResults: 10 });
  });

  it("normalizes results, the first highlight as the snippet; refuses a body without results", () => {
    const body = {
      requestId: "r2",
      results: [
        { url: "https://a", title: "A", publishedDate: "2026-01-01", author: null, highlights: ["H1", "H2"] },
        { url: "https://b" },
      ],
    };
    expect(adapter.parseResponse("search.web", response(200, body), { query: "q" })).toEqual({
      status: "completed",
      providerMessageId: "r2",
      data: {
        results: [
          { title: "A", url: "https://a", snippet: "H1", publishedAt: "2026-01-01" },
          { title: null, url: "https://b", snippet: null, publishedAt: null },
        ],
      },
    });
    expect(() => adapter.parseResponse("search.web", response(200, { requestId: "r" }), { query: "q" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("searches over MPP through the sandbox, paid per call", async () => {
    const { res, result } = await routes.execute("exa", "mpp", "search.web", { query: "machine payments", count: 2 });
    expect(res.payment).toMatchObject({ rail: "mpp", settlement: "settled" });
    expect(result.data.results).toEqual([
      expect.objectContaining({ url: "https://example.com/machine-payments/1", snippet: "Source 1 explains machine payments." }),
      expect.objectContaining({ url: "https://example.com/machine-payments/2" }),
    ]);
  });
});
