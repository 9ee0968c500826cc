// Firecrawl v2 (web.extract, web.scrape, web.map), bearer key on direct routes; errors {success: false, error}.
// - web.extract: POST /v2/scrape {url, formats: [{type: "json", schema, prompt?}]}, the schema being the
//   caller's or one string property per requested field; 200 {success: true, data: {json}}. The result
//   holds exactly the schema's fields (null when the page did not yield one).
// - web.scrape: POST /v2/scrape {url, formats: ["markdown" | "html" | "links"], waitFor?}; 200 {success:
//   true, data: {markdown?, html?, links?, metadata}}.
// - web.map: POST /v2/map {url, search?}; 200 {success: true, links: [{url, title?, description?}]}.
// - web.crawl (a flow, direct routes only): POST /v2/crawl {url, limit, includePaths?, scrapeOptions} → {success,
//   id, url}, then GET /v2/crawl/{id} → {status: scraping | completed | failed, total, completed, creditsUsed,
//   data: [{markdown, metadata}]} until completed, within the attempt's deadline. `limit` is always sent
//   (the contract caps it; Firecrawl's own default is 10,000 pages, 1 credit each). Starting the crawl makes
//   Firecrawl act and bill: a failure after it started is reported as possibly done, never retried elsewhere.
// Firecrawl bills by what it meets, so every request sends its own caps (docs.firecrawl.dev, "Advanced
// scraping guide"): `timeout` (ms; its default, 30 s, outlives our deadline, and work we stopped waiting
// for is still billed), `proxy: "basic"` (its default "auto" retries with the enhanced proxy, 4-5 credits
// a page more) and `parsers: [{type: "pdf", maxPages}]` (a PDF costs a credit a page). `waitFor` may be at
// most half the timeout, as Firecrawl requires: a longer wait is refused with a 400 naming waitForMs.
// Scrape and extract are charged the pages Firecrawl reports (`metadata.numPages` of a PDF, else one),
// the catalog's `pages` bill driver, within the hold that covers maxPages.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import { ProviderError, type CapabilityInput, type ProviderContext, type ProviderResult, type VendorCalls } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { bearerAuth } from "./vendor-key";
import { vendorDeadlineMs } from "./vendor-deadline";

const KEY = "firecrawl";

/** The page formats web.scrape offers (Firecrawl's names). */
const PAGE_FORMATS = new Set(["markdown", "html", "links"]);
/** Pages a crawl may fetch when the caller names no limit: what the route's price covers. */
const DEFAULT_CRAWL_LIMIT = 10;
/** PDF pages one call may parse (parsers maxPages): the catalog's `pages` cap of each route. */
export const PDF_MAX_PAGES = { "web.scrape": 10, "web.extract": 3, "web.crawl": 1 } as const;
/** The only proxy we pay for: Firecrawl's enhanced one costs several credits a page more. */
const PROXY = "basic";
/** First wait before reading a crawl job, doubled up to the longest. */
const FIRST_POLL_MS = 250;
const LONGEST_POLL_MS = 2_000;

/** Firecrawl's own bounds on what one request may cost and take. */
function caps(capabilityKey: keyof typeof PDF_MAX_PAGES, timeout: number) {
  return { timeout, proxy: PROXY, parsers: [{ type: "pdf", maxPages: PDF_MAX_PAGES[capabilityKey] }] };
}

/** The pages Firecrawl billed: a PDF's parsed pages (numPages), else the one page. */
function billedPages(data: Record<string, unknown>): { pages: number } {
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  const pages = metadata.numPages;
  return { pages: typeof pages === "number" && Number.isInteger(pages) && pages > 0 ? pages : 1 };
}

/** The page formats asked for (markdown when none), each one Firecrawl knows. */
function pageFormats(input: CapabilityInput): string[] {
  const formats = new InputReader(KEY, input).strings("formats");
  const unknown = formats.find((f) => !PAGE_FORMATS.has(f));
  if (unknown !== undefined) throw inputRefusal(KEY, "`formats` may hold markdown, html and links", "formats");
  return formats.length > 0 ? [...new Set(formats)] : ["markdown"];
}

function scrapeResult(res: RailResponse, input: CapabilityInput): ProviderResult {
  const data = isRecord(res.body) && res.body.success === true && isRecord(res.body.data) ? res.body.data : undefined;
  const formats = pageFormats(input);
  if (!data || formats.some((f) => data[f] === undefined)) throw invalidResponse(KEY, res, "without the requested formats");
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  return {
    status: "completed",
    billedUnits: billedPages(data),
    data: {
      ...Object.fromEntries(formats.map((f) => [f, data[f]])),
      metadata: {
        title: stringField(metadata, "title") ?? null,
        description: stringField(metadata, "description") ?? null,
        url: stringField(metadata, "url") ?? stringField(metadata, "sourceURL") ?? null,
        statusCode: typeof metadata.statusCode === "number" ? metadata.statusCode : null,
      },
    },
  };
}

function mapResult(res: RailResponse): ProviderResult {
  const links = isRecord(res.body) && res.body.success === true && Array.isArray(res.body.links) ? res.body.links : undefined;
  if (!links) throw invalidResponse(KEY, res, "without links");
  // v2 lists objects; a plain URL string (as v1 did) is accepted too.
  const entries = links.flatMap((l) => (typeof l === "string" ? [{ url: l }] : isRecord(l) && typeof l.url === "string" ? [l] : []));
  return {
    status: "completed",
    data: {
      links: entries.map((l) => ({
        url: l.url,
        title: stringField(l, "title") ?? null,
        description: stringField(l, "description") ?? null,
      })),
    },
  };
}

/** The caller's JSON schema (an object with properties), else one string property per field in `fields`. */
function schema(input: CapabilityInput): { type: "object"; properties: Record<string, unknown> } {
  const read = new InputReader(KEY, input);
  const given = read.raw("schema");
  if (given !== undefined) {
    if (!isRecord(given) || !isRecord(given.properties) || Object.keys(given.properties).length === 0) {
      throw inputRefusal(KEY, "`schema` must be a JSON schema object with properties");
    }
    return { ...given, type: "object", properties: given.properties };
  }
  const fields = read.strings("fields");
  if (fields.length === 0) throw inputRefusal(KEY, "give `fields` or `schema`");
  return { type: "object", properties: Object.fromEntries(fields.map((f) => [f, { type: "string" }])) };
}

/** Starts the crawl, then reads the job (waiting longer each time) until it completes or the deadline comes. */
async function crawl(input: CapabilityInput, ctx: ProviderContext, vendor: VendorCalls): Promise<ProviderResult> {
  const start = crawlRequest(input, ctx);
  const started = await vendor.send(start, { acts: true });
  if (started.status !== 200) throw vendorError(KEY, started, { message: stringField(started.body, "error") });
  const id = isRecord(started.body) && started.body.success === true ? stringField(started.body, "id") : undefined;
  if (!id || !/^[A-Za-z0-9-]+$/.test(id)) throw invalidResponse(KEY, started, "without a crawl id");
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, LONGEST_POLL_MS)) {
    await vendor.pause(wait);
    const res = await vendor.send({ method: "GET", url: `${ctx.baseUrl}/v2/crawl/${id}`, headers: start.headers });
    if (res.status !== 200) throw vendorError(KEY, res, { message: stringField(res.body, "error") });
    const status = stringField(res.body, "status");
    if (status === "scraping") continue;
    if (status === "failed")
      throw new ProviderError("invalid_response", KEY, `firecrawl crawl ${id} failed`, {
        status: res.status,
        vendorCode: "failed",
      });
    if (status !== "completed" || !isRecord(res.body) || !Array.isArray(res.body.data))
      throw invalidResponse(KEY, res, "with an unknown crawl status");
    const body = res.body;
    const pages = res.body.data.filter(isRecord);
    const count = (field: string) => (typeof body[field] === "number" ? body[field] : null);
    return {
      status: "completed",
      providerMessageId: id,
      data: {
        crawlId: id,
        total: count("total"),
        completed: count("completed"),
        creditsUsed: count("creditsUsed"),
        pages: pages.map((page) => {
          const metadata = isRecord(page.metadata) ? page.metadata : {};
          return {
            url: stringField(metadata, "url") ?? stringField(metadata, "sourceURL") ?? null,
            title: stringField(metadata, "title") ?? null,
            statusCode: typeof metadata.statusCode === "number" ? metadata.statusCode : null,
            markdown: stringField(page, "markdown") ?? null,
          };
        }),
      },
    };
  }
}

/** Firecrawl's error body {success: false, error}, or nothing on a 200. */
function checkStatus(res: RailResponse): void {
  if (res.status !== 200) throw vendorError(KEY, res, { message: stringField(res.body, "error") });
}

/** What every request starts from: the page's url, our key, and the time Firecrawl is given. */
function common(input: CapabilityInput, ctx: ProviderContext) {
  const read = new InputReader(KEY, input);
  return { read, url: read.string("url", true), headers: bearerAuth(ctx), timeout: vendorDeadlineMs(ctx) };
}

/** The crawl's start (the flow's main request). */
function crawlRequest(input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
  const { read, url, headers, timeout } = common(input, ctx);
  const limit = read.number("limit", { integer: true, min: 1, max: DEFAULT_CRAWL_LIMIT }) ?? DEFAULT_CRAWL_LIMIT;
  const includePaths = read.strings("includePaths");
  return {
    method: "POST",
    url: `${ctx.baseUrl}/v2/crawl`,
    headers,
    body: {
      url,
      limit,
      ...(includePaths.length > 0 ? { includePaths } : {}),
      scrapeOptions: { formats: ["markdown"], onlyMainContent: true, ...caps("web.crawl", timeout) },
    },
  };
}

export const firecrawlProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.firecrawl.dev" },
  capabilities: {
    "web.extract": {
      request(input, ctx) {
        const { read, url, headers, timeout } = common(input, ctx);
        const schemaOf = schema(input);
        const prompt = read.string("prompt");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v2/scrape`,
          headers,
          body: {
            url,
            formats: [{ type: "json", schema: schemaOf, ...(prompt ? { prompt } : {}) }],
            onlyMainContent: true,
            ...caps("web.extract", timeout),
          },
        };
      },
      parse(res, input) {
        checkStatus(res);
        const data = isRecord(res.body) && res.body.success === true && isRecord(res.body.data) ? res.body.data : undefined;
        const json = data && isRecord(data.json) ? data.json : undefined;
        if (!data || !json) throw invalidResponse(KEY, res, "without extracted json");
        const fields = Object.keys(schema(input).properties);
        return {
          status: "completed",
          data: Object.fromEntries(fields.map((f) => [f, json[f] ?? null])),
          billedUnits: billedPages(data),
        };
      },
    },
    "web.scrape": {
      request(input, ctx) {
        const { read, url, headers, timeout } = common(input, ctx);
        const waitFor = read.number("waitForMs", { integer: true, min: 0 });
        // Firecrawl refuses a wait above half its timeout; the page must still load and render after it.
        if (waitFor !== undefined && waitFor > Math.floor(timeout / 2))
          throw inputRefusal(
            KEY,
            `\`waitForMs\` may be at most ${Math.floor(timeout / 2)} ms: the page must load, wait and render within the ${timeout} ms Firecrawl is given`,
            "waitForMs",
          );
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v2/scrape`,
          headers,
          body: {
            url,
            formats: pageFormats(input),
            onlyMainContent: true,
            ...(waitFor !== undefined ? { waitFor } : {}),
            ...caps("web.scrape", timeout),
          },
        };
      },
      parse(res, input) {
        checkStatus(res);
        return scrapeResult(res, input);
      },
    },
    "web.map": {
      request(input, ctx) {
        const { read, url, headers, timeout } = common(input, ctx);
        const search = read.string("search");
        return { method: "POST", url: `${ctx.baseUrl}/v2/map`, headers, body: { url, ...(search ? { search } : {}), timeout } };
      },
      parse(res) {
        checkStatus(res);
        return mapResult(res);
      },
    },
    "web.crawl": { request: crawlRequest, flow: crawl },
  },
});
