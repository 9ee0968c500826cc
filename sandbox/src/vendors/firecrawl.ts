// Firecrawl v2 stand-in (API with a bearer key, and its MPP host): POST /v2/scrape {url, formats: ["markdown" |
// "html" | "links" | {type: "json", schema|prompt}], waitFor?} → {success: true, data: {markdown?, html?,
// links?, json?, metadata}}; POST /v2/map {url, search?, limit?} → {success: true, links: [{url, title,
// description}]}; POST /v2/crawl {url, limit?, includePaths?, scrapeOptions?} → {success: true, id, url}, then
// GET /v2/crawl/<id> → {status: "scraping", completed < total} on the first read and {status: "completed",
// total, completed, creditsUsed (1 a page), data: [{markdown, metadata}]} from the second on ("failed" when
// the URL's host ends in `.invalid`); errors {success: false, error}. Pages and extracted values are derived
// deterministically from the URL (and the schema's property names; sizes from page-world.ts).
// The options that bound what a scrape costs and takes are checked as Firecrawl checks them: `timeout`
// (ms, 1,000..300,000, default 30,000), `waitFor` at most half of it, `proxy` (basic | stealth | enhanced
// | auto, default auto: a site that blocks plain proxies is retried on the enhanced one, +4 credits),
// `parsers` ([] or ["pdf" | {type: "pdf", maxPages?}], default ["pdf"]: a PDF costs a credit per parsed
// page). The answer's metadata reports numPages (PDFs), proxyUsed and creditsUsed.
import { randomUUID } from "node:crypto";
import {
  authToken,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";
import { blocksPlainProxies, isPdf, pdfPages, sizedText } from "./page-world";

const PROXIES = new Set(["basic", "stealth", "enhanced", "auto"]);
/** Credits an enhanced-proxy page costs beyond the base credit. */
const ENHANCED_PROXY_CREDITS = 4;

/** The checked cost options of a scrape (top level, or a crawl's scrapeOptions), or Firecrawl's 400. */
function costOptions(
  b: Record<string, unknown>,
): { timeout: number; proxy: string; parsePdf: boolean; maxPages: number | undefined } | VendorReply {
  const timeout = b.timeout ?? 30_000;
  if (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1_000 || timeout > 300_000)
    return error(400, "Bad Request: timeout must be an integer between 1000 and 300000");
  if (b.waitFor !== undefined && (typeof b.waitFor !== "number" || !Number.isInteger(b.waitFor) || b.waitFor < 0))
    return error(400, "Bad Request: waitFor must be a non-negative integer");
  if (typeof b.waitFor === "number" && b.waitFor > timeout / 2) return error(400, "Bad Request: waitFor must not exceed half of timeout");
  const proxy = b.proxy ?? "auto";
  if (typeof proxy !== "string" || !PROXIES.has(proxy)) return error(400, "Bad Request: proxy must be basic, stealth, enhanced or auto");
  const parsers = b.parsers ?? ["pdf"];
  if (!Array.isArray(parsers)) return error(400, "Bad Request: parsers must be an array");
  let parsePdf = false;
  let maxPages: number | undefined;
  for (const p of parsers) {
    if (p === "pdf") parsePdf = true;
    else if (isObject(p) && p.type === "pdf") {
      if (
        p.maxPages !== undefined &&
        (typeof p.maxPages !== "number" || !Number.isInteger(p.maxPages) || p.maxPages < 1 || p.maxPages > 10_000)
      )
        return error(400, "Bad Request: parsers[].maxPages must be an integer between 1 and 10000");
      parsePdf = true;
      maxPages = p.maxPages as number | undefined;
    } else return error(400, `Bad Request: unsupported parser ${JSON.stringify(p)}`);
  }
  return { timeout, proxy, parsePdf, maxPages };
}

function error(status: number, message: string): VendorReply {
  return { status, body: { success: false, error: message } };
}

/** Reads of a crawl job that answer "scraping" before it completes. */
const READS_WHILE_SCRAPING = 1;
/** Paths a crawl finds below a site's root, in order. */
const SITE_PATHS = [
  "",
  "docs",
  "docs/auth",
  "docs/api",
  "pricing",
  "blog",
  "blog/launch",
  "about",
  "careers",
  "contact",
  "legal",
  "status",
];

interface CrawlJob {
  pages: URL[];
  failed: boolean;
  reads: number;
}

export function firecrawlVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  const crawls = new Map<string, CrawlJob>();
  return {
    key: "firecrawl",
    price: { amountAtomic: priceAtomic, description: "Firecrawl scrape" },
    authenticate: (req) => (authToken(req, "Bearer") === apiKey ? undefined : error(401, "Unauthorized: Invalid token")),
    errorReply: error,
    routes: [
      { method: "POST", path: "/v2/scrape", handle: scrape },
      { method: "POST", path: "/v2/map", handle: map },
      { method: "POST", path: "/v2/crawl", handle: (req) => startCrawl(crawls, req) },
      // Reading a crawl job costs nothing at Firecrawl: the paid mounts price it at the minimum.
      { method: "GET", path: "/v2/crawl/:id", priceAtomic: "1000", handle: (req) => readCrawl(crawls, req) },
    ],
  };
}

/** The request's http(s) URL, or the error Firecrawl answers. */
function pageUrl(b: unknown): URL | VendorReply {
  if (!isObject(b) || typeof b.url !== "string") return error(400, "Bad Request: url is required");
  let url: URL;
  try {
    url = new URL(b.url);
  } catch {
    return error(400, "Bad Request: invalid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return error(400, "Bad Request: URL must use http or https");
  return url;
}

function map(req: VendorRequest): VendorReply {
  const url = pageUrl(req.body);
  if (!(url instanceof URL)) return url;
  const b = req.body as Record<string, unknown>;
  if (b.search !== undefined && typeof b.search !== "string") return error(400, "Bad Request: search must be a string");
  if (b.timeout !== undefined && (typeof b.timeout !== "number" || !Number.isInteger(b.timeout) || b.timeout < 1_000))
    return error(400, "Bad Request: timeout must be an integer of at least 1000");
  const limit = b.limit ?? 5000;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 100000)
    return error(400, "Bad Request: limit must be an integer between 1 and 100000");
  const term = typeof b.search === "string" ? b.search.toLowerCase().replace(/[^a-z0-9]+/g, "-") : "";
  const pages = ["", "docs", "pricing", "blog", "about", term ? `docs/${term}` : ""].filter((p, i) => i === 0 || p !== "");
  const links = pages
    .map((p) => ({
      url: `${url.origin}/${p}`,
      title: p ? `${p} | ${url.hostname}` : url.hostname,
      description: `Page ${p || "home"} of ${url.hostname}`,
    }))
    .sort((a, b2) => Number(term !== "" && b2.url.includes(term)) - Number(term !== "" && a.url.includes(term)))
    .slice(0, limit);
  return { status: 200, body: { success: true, links } };
}

function startCrawl(crawls: Map<string, CrawlJob>, req: VendorRequest): VendorReply {
  const url = pageUrl(req.body);
  if (!(url instanceof URL)) return url;
  const b = req.body as Record<string, unknown>;
  const limit = b.limit ?? 10000;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)
    return error(400, "Bad Request: limit must be a positive integer");
  if (b.scrapeOptions !== undefined) {
    if (!isObject(b.scrapeOptions)) return error(400, "Bad Request: scrapeOptions must be an object");
    const options = costOptions(b.scrapeOptions);
    if (!("timeout" in options)) return options;
  }
  const include = b.includePaths ?? [];
  if (!Array.isArray(include) || include.some((p) => typeof p !== "string"))
    return error(400, "Bad Request: includePaths must be an array of strings");
  let patterns: RegExp[];
  try {
    patterns = (include as string[]).map((p) => new RegExp(p));
  } catch {
    return error(400, "Bad Request: includePaths must be valid regular expressions");
  }
  // Like Firecrawl, includePaths match the path (the start page is always crawled).
  const pages = SITE_PATHS.map((p) => new URL(`/${p}`, url.origin))
    .filter((page, i) => i === 0 || patterns.length === 0 || patterns.some((re) => re.test(page.pathname)))
    .slice(0, limit);
  const id = randomUUID();
  crawls.set(id, { pages, failed: url.hostname.endsWith(".invalid"), reads: 0 });
  return { status: 200, body: { success: true, id, url: `https://api.firecrawl.dev/v2/crawl/${id}` } };
}

function readCrawl(crawls: Map<string, CrawlJob>, req: VendorRequest): VendorReply {
  const job = crawls.get(req.params.id ?? "");
  if (!job) return error(404, "Crawl job not found.");
  job.reads++;
  const total = job.pages.length;
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  if (job.failed)
    return { status: 200, body: { success: true, status: "failed", total, completed: 0, creditsUsed: 0, expiresAt, data: [] } };
  if (job.reads <= READS_WHILE_SCRAPING)
    return {
      status: 200,
      body: {
        success: true,
        status: "scraping",
        total,
        completed: Math.floor(total / 2),
        creditsUsed: Math.floor(total / 2),
        expiresAt,
        data: [],
      },
    };
  const data = job.pages.map((page) => {
    const title = `${page.hostname} ${page.pathname === "/" ? "home" : page.pathname.split("/").filter(Boolean).join(" ")}`;
    return {
      markdown: `# ${title}\n\nContent of ${page.href}.`,
      metadata: { title, sourceURL: page.href, url: page.href, statusCode: 200, contentType: "text/html; charset=utf-8" },
    };
  });
  return { status: 200, body: { success: true, status: "completed", total, completed: total, creditsUsed: total, expiresAt, data } };
}

function scrape(req: VendorRequest): VendorReply {
  const url = pageUrl(req.body);
  if (!(url instanceof URL)) return url;
  const b = req.body as Record<string, unknown>;
  const options = costOptions(b);
  if (!("timeout" in options)) return options;
  const formats = b.formats === undefined ? ["markdown"] : b.formats;
  if (!Array.isArray(formats)) return error(400, "Bad Request: formats must be an array");
  const title = `${url.hostname.replace(/^www\./, "")} ${url.pathname === "/" ? "home" : url.pathname.split("/").filter(Boolean).join(" ")}`;
  // What the page costs: a parsed PDF a credit per page (up to maxPages), else one; the enhanced proxy more.
  const pdf = isPdf(url);
  const numPages = pdf && options.parsePdf ? Math.min(pdfPages(url), options.maxPages ?? Number.MAX_SAFE_INTEGER) : undefined;
  const enhanced = options.proxy === "stealth" || options.proxy === "enhanced" || (options.proxy === "auto" && blocksPlainProxies(url));
  const blocked = !enhanced && blocksPlainProxies(url);
  const creditsUsed = (numPages ?? 1) + (enhanced ? ENHANCED_PROXY_CREDITS : 0);
  const text = sizedText(url, numPages !== undefined ? `Text of ${numPages} pages of ${url.href}.` : `Content of ${url.href}.`);
  const data: Record<string, unknown> = {
    metadata: {
      title,
      description: `Page at ${url.href}`,
      sourceURL: b.url,
      url: url.href,
      statusCode: blocked ? 403 : 200,
      contentType: pdf ? "application/pdf" : "text/html; charset=utf-8",
      ...(numPages !== undefined ? { numPages } : {}),
      proxyUsed: enhanced ? "stealth" : "basic",
      creditsUsed,
    },
  };
  for (const format of formats) {
    if (format === "markdown") data.markdown = `# ${title}\n\n${text}`;
    else if (format === "html") data.html = `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
    else if (format === "links") data.links = [`${url.origin}/`, `${url.origin}/docs`, `${url.origin}/pricing`];
    else if (isObject(format) && format.type === "json") {
      if (!isObject(format.schema) && typeof format.prompt !== "string")
        return error(400, "Bad Request: json format needs a schema or a prompt");
      const properties =
        isObject(format.schema) && isObject(format.schema.properties) ? Object.keys(format.schema.properties) : ["summary"];
      data.json = Object.fromEntries(properties.map((p) => [p, p.toLowerCase() === "title" ? title : `${p} of ${url.hostname}`]));
    } else return error(400, `Bad Request: unsupported format ${JSON.stringify(format)}`);
  }
  return { status: 200, body: { success: true, data } };
}

export const firecrawlSandbox = {
  key: "firecrawl",
  apiKey: "fc-sandbox-key",
  priceAtomic: "10000",
  create: firecrawlVendor,
} as const satisfies SandboxVendor;
