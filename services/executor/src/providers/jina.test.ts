import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { JINA_TOKEN_BUDGET, jinaProvider } from "./jina";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(jinaProvider);
const response = (status: number, body: unknown, headers: Record<string, string> = {}): RailResponse => ({ status, headers, body });

describe("Jina Reader adapter (web.fetch)", () => {
  it("builds POST / {url} asking for JSON with markdown content, the key only on direct routes", () => {
    expect(
      adapter.buildRequest(
        "web.fetch",
        { url: "https://example.com/a" },
        { baseUrl: "https://r.jina.ai", credentials: { apiKey: "jina_1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://r.jina.ai/",
      // Jina's own caps: load within our deadline (15 s less the answer's margin), bill at most the token budget.
      headers: {
        Accept: "application/json",
        "X-Return-Format": "markdown",
        "X-Timeout": "14",
        "X-Token-Budget": String(JINA_TOKEN_BUDGET),
        Authorization: "Bearer jina_1",
      },
      body: { url: "https://example.com/a" },
    });
    expect(() => adapter.buildRequest("web.fetch", {}, { baseUrl: "https://r.jina.ai" })).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
  });

  it("normalizes data to markdown with title and url; maps Jina's named errors", () => {
    const body = {
      code: 200,
      status: 20000,
      data: { title: "T", description: "", url: "https://e", content: "# T", usage: { tokens: 3 } },
    };
    expect(adapter.parseResponse("web.fetch", response(200, body), { url: "https://e" }).billedUnits).toEqual({ output_tokens: 3 });
    expect(adapter.parseResponse("web.fetch", response(200, body), { url: "https://e" }).data).toEqual({
      url: "https://e",
      title: "T",
      description: null,
      publishedTime: null,
      markdown: "# T",
    });
    expect(() => adapter.parseResponse("web.fetch", response(200, "Title: T\n\nMarkdown Content:\n# T"), { url: "https://e" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    const unreadable = { data: null, code: 422, name: "AssertionFailureError", status: 42206, message: "Invalid URL" };
    expect(() => adapter.parseResponse("web.fetch", response(422, unreadable), { url: "https://e" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "input", vendorCode: "AssertionFailureError" }),
    );
    const broke = { data: null, code: 402, name: "InsufficientBalanceError", status: 40201, message: "Account balance not enough" };
    expect(() => adapter.parseResponse("web.fetch", response(402, broke), { url: "https://e" })).toThrow(
      expect.objectContaining({ blame: "provider" }),
    );
  });

  it("reads a page on the direct API through the sandbox", async () => {
    const { res, result } = await routes.execute("jina", "direct", "web.fetch", { url: "https://example.com/blog/launch" });
    expect(res.payment?.rail).toBe("api_key");
    expect(result.data).toMatchObject({
      title: "example.com blog launch",
      markdown: expect.stringContaining("Main content at https://example.com/blog/launch"),
    });
    expect(routes.sandbox().control.calls("jina").at(-1)?.headers).toMatchObject({
      "x-return-format": "markdown",
      "x-token-budget": String(JINA_TOKEN_BUDGET),
      "x-timeout": expect.stringMatching(/^\d+$/),
    });
  });

  it("charges what Jina reports within its token budget; a page above the budget is refused, as Jina does, and blamed on the input", async () => {
    const { result } = await routes.execute("jina", "direct", "web.fetch", { url: "https://example.com/bytes-200000/long" });
    expect(result.billedUnits).toEqual({ output_tokens: 50_000 });
    await expect(
      routes.executeError("jina", "direct", "web.fetch", { url: "https://example.com/bytes-2000000/huge" }),
    ).resolves.toMatchObject({ kind: "http_4xx", status: 422, blame: "input" });
  });

  it("reports an unreadable URL as the caller's, and a rate limit as retryable", async () => {
    await expect(routes.executeError("jina", "direct", "web.fetch", { url: "ftp://example.com/file" })).resolves.toMatchObject({
      kind: "http_4xx",
      status: 422,
      blame: "input",
    });
    routes.sandbox().control.setFault({ provider: "jina", mode: "fail", status: 429, count: 1 });
    await expect(routes.executeError("jina", "direct", "web.fetch", { url: "https://example.com" })).resolves.toMatchObject({
      status: 429,
      retryable: true,
      blame: "provider",
      vendorCode: "RateLimitTriggeredError",
    });
  });
});
