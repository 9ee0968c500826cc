import type { AppError } from "@agentic/platform/core";
import { Route } from "@agentic/proto/catalog/v1";
import { SettlementKind } from "@agentic/proto/events/v1";
import type { Execution } from "../domain/execution";
import { quote } from "../domain/pricing";
import type { Rail, RailResponse } from "../domain/rail-port";
import type { ProviderAdapter, VendorCalls } from "../domain/provider-port";
import { createAttemptRunner } from "../domain/run-attempts";
import { testDeps } from "../executor-deps.fixture";
import { DirectRail } from "../rails/direct";
import { firecrawlProvider, PDF_MAX_PAGES } from "./firecrawl";
import { providerAdapter } from "./registry";
import { runFlowOnSandbox, served } from "./flow-route.fixture";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(firecrawlProvider);
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
        timeout: 14_000,
        proxy: "basic",
        parsers: [{ type: "pdf", maxPages: PDF_MAX_PAGES["web.extract"] }],
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
      body: {
        url: "https://example.com",
        formats: ["html", "links"],
        onlyMainContent: true,
        waitFor: 500,
        // Firecrawl's own caps: finish within our deadline, no enhanced proxy, at most 10 PDF pages.
        timeout: 14_000,
        proxy: "basic",
        parsers: [{ type: "pdf", maxPages: 10 }],
      },
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
      body: { url: "https://example.com", search: "docs", timeout: 14_000 },
    });
  });

  it("asks Firecrawl to finish within the provider deadline, and refuses a waitForMs above half of it, naming the field", () => {
    const ctx = { baseUrl: "https://x", timeoutMs: 5_000 };
    expect(adapter.buildRequest("web.scrape", { url: "https://example.com", waitForMs: 2_000 }, ctx).body).toMatchObject({
      timeout: 4_000,
      waitFor: 2_000,
    });
    expect(() => adapter.buildRequest("web.scrape", { url: "https://example.com", waitForMs: 2_001 }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "waitForMs", message: expect.stringContaining("at most 2000 ms") }),
    );
  });

  it("reports the pages Firecrawl billed: a PDF's parsed pages, else one", () => {
    const page = (metadata: Record<string, unknown>) => response(200, { success: true, data: { markdown: "# T", metadata } });
    expect(adapter.parseResponse("web.scrape", page({ numPages: 7 }), { url: "https://e/a.pdf" }).billedUnits).toEqual({ pages: 7 });
    expect(adapter.parseResponse("web.scrape", page({}), { url: "https://e" }).billedUnits).toEqual({ pages: 1 });
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
    expect(direct.result.billedUnits).toEqual({ pages: 1 });
    // A 300-page PDF is parsed to its first 10 pages, on the basic proxy: what the hold covers is what is billed.
    const pdf = await routes.execute("firecrawl", "direct", "web.scrape", { url: "https://example.com/reports/pages-300.pdf" });
    expect(pdf.result.billedUnits).toEqual({ pages: 10 });
    expect(routes.sandbox().control.calls("firecrawl").at(-1)?.body).toMatchObject({
      proxy: "basic",
      parsers: [{ type: "pdf", maxPages: 10 }],
      timeout: expect.any(Number),
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

describe("Firecrawl adapter (web.crawl, a flow: start, then poll)", () => {
  const crawl = { url: "https://example.com", limit: 4, includePaths: ["^/docs"] };
  const calls = () =>
    routes
      .sandbox()
      .control.calls("firecrawl")
      .map((c) => `${c.method} ${c.path.replace(/[0-9a-f-]{36}/, ":id")} ${c.status}`);

  it("plans POST /v2/crawl with the page limit always sent (10 when none is given) and markdown pages", () => {
    const ctx = { baseUrl: "https://api.firecrawl.dev", credentials: { apiKey: "fc-1" } };
    expect(adapter.buildRequest("web.crawl", crawl, ctx)).toEqual({
      method: "POST",
      url: "https://api.firecrawl.dev/v2/crawl",
      headers: { Authorization: "Bearer fc-1" },
      body: {
        url: "https://example.com",
        limit: 4,
        includePaths: ["^/docs"],
        scrapeOptions: {
          formats: ["markdown"],
          onlyMainContent: true,
          timeout: 14_000,
          proxy: "basic",
          parsers: [{ type: "pdf", maxPages: 1 }],
        },
      },
    });
    expect(adapter.buildRequest("web.crawl", { url: "https://example.com" }, ctx).body).toMatchObject({ limit: 10 });
    expect(() => adapter.buildRequest("web.crawl", { url: "https://example.com", limit: 11 }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
  });

  it("starts the crawl, reads the job until it completes, and returns its pages", async () => {
    const result = served(await runFlowOnSandbox(routes, "firecrawl", "web.crawl", crawl));
    expect(calls()).toEqual(["POST /v2/crawl 200", "GET /v2/crawl/:id 200", "GET /v2/crawl/:id 200"]);
    expect(result.data).toMatchObject({ total: 4, completed: 4, creditsUsed: 4 });
    const pages = result.data.pages as { url: string; markdown: string }[];
    expect(pages.map((p) => p.url)).toEqual([
      "https://example.com/",
      "https://example.com/docs",
      "https://example.com/docs/auth",
      "https://example.com/docs/api",
    ]);
    expect(pages[1]!.markdown).toContain("Content of https://example.com/docs");
  });

  it("reports a crawl that fails or outlasts the deadline after it started as possibly done", async () => {
    const failed = await runFlowOnSandbox(routes, "firecrawl", "web.crawl", { url: "https://down.invalid" });
    expect(failed).toMatchObject({ ok: false, vendorActed: true, err: { kind: "invalid_response" } });
    // The first wait (250 ms) does not fit in 100 ms: the deadline ends the flow without waiting for it.
    const late = await runFlowOnSandbox(routes, "firecrawl", "web.crawl", crawl, { deadlineMs: 100 });
    expect(late).toMatchObject({ ok: false, vendorActed: true, err: { kind: "timeout" } });
    const refused = await runFlowOnSandbox(routes, "firecrawl", "web.crawl", { url: "ftp://example.com" });
    expect(refused).toMatchObject({ ok: false, vendorActed: false, err: { kind: "http_4xx", blame: "input" } });
  });
});

describe("a crawl through the attempt runner", () => {
  const first = Route.fromPartial({
    routeKey: "web.crawl.firecrawl",
    domainKey: "web",
    capabilityId: "crawl",
    providerKey: "firecrawl",
    networkKey: "direct",
    startingCostCredits: 11,
  });
  const second = Route.fromPartial({ ...first, routeKey: "web.crawl.firecrawl.second" });
  const input = { url: "https://example.com", limit: 2 };

  /** Runs the crawl on two direct routes (fallback allowed), the sandbox answering 503 once: to the start, or to the first poll. */
  async function runCrawl(faultOn: "start" | "poll") {
    const settled: { holdId: string; kind: number }[] = [];
    const run = createAttemptRunner(testDeps({ bus: { settle: async (s) => void settled.push(s), reportOutcome: () => undefined } }));
    const provider = routes.registry().get("firecrawl", "direct")!;
    const direct = new DirectRail();
    let faulted = false;
    const fault = () => {
      if (!faulted) routes.sandbox().control.setFault({ provider: "firecrawl", mode: "5xx", count: 1 });
      faulted = true;
    };
    // The real rail; the sandbox's next answer turns 503 at the chosen step.
    const rail: Rail = {
      network: "direct",
      send: async (req, opts) => {
        if (faultOn === "start" && req.method === "POST") fault();
        const res = await direct.send(req, opts);
        if (faultOn === "poll" && req.method === "POST") fault();
        return res;
      },
    };
    const flow = provider.adapter.flows!["web.crawl"]!;
    const prepared = [first, second].map((route) => ({
      route,
      rail,
      adapter: provider.adapter,
      quote: quote(route, input),
      request: provider.adapter.buildRequest("web.crawl", input, provider.ctx),
      flow: (vendor: VendorCalls) => flow(input, provider.ctx, vendor),
    }));
    const execution: Execution = {
      id: "exe_crawl",
      cmd: { userId: "u1", domainKey: "web", capabilityId: "crawl", body: input },
      capabilityKey: "web.crawl",
      input,
      prepared,
      allowFallback: true,
      alternatives: true,
      notTried: [],
      planHash: "",
    };
    const outcome = await run(execution, { remainingMs: () => 30_000 }).then(
      (response) => ({ response, error: undefined }),
      (error: AppError) => ({ response: undefined, error }),
    );
    return { ...outcome, settled };
  }

  it("falls back when the vendor refused to start it: nothing was done", async () => {
    const { response, error, settled } = await runCrawl("start");
    expect(error).toBeUndefined();
    expect(response).toMatchObject({ routeKey: "web.crawl.firecrawl.second", creditsCharged: 11 });
    expect(settled.map((s) => s.kind)).toEqual([SettlementKind.SETTLEMENT_KIND_RELEASE, SettlementKind.SETTLEMENT_KIND_CAPTURE]);
  });

  it("never falls back once the crawl started: a failed poll is released and reported as possibly done", async () => {
    const { error, settled } = await runCrawl("poll");
    expect(error).toMatchObject({ code: "PROVIDER_ERROR" });
    expect(error!.hint).toMatch(/may still have completed/);
    expect(error!.details).toMatchObject({ attempts: [{ routeKey: "web.crawl.firecrawl", errorKind: "http_5xx" }] });
    expect(settled.map((s) => s.kind)).toEqual([SettlementKind.SETTLEMENT_KIND_RELEASE]);
    expect(
      routes
        .sandbox()
        .control.calls("firecrawl")
        .filter((c) => c.method === "POST"),
    ).toHaveLength(1);
  });
});
