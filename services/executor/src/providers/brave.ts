// Brave Search API (search.web, search.news, search.images): GET /res/v1/{web,news,images}/search?q=&count=
// (`X-Subscription-Token` on direct routes), with `freshness` pd/pw/pm/py on news and `safesearch=strict`
// on images. Web results are under `web.results`, news and images under `results`; errors are
// {type: "ErrorResponse", error: {code, detail}}. Brave answers a bad token with a 422 like a bad
// parameter, so its code decides the blame: the token is ours, not the caller's.
import type { RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider, type CapabilityHandler } from "./provider-table";

const KEY = "brave";
/** Our freshness words as Brave's codes (past day, week, month, year). */
const FRESHNESS: Readonly<Record<string, string>> = { day: "pd", week: "pw", month: "pm", year: "py" };
/** Brave error codes about our subscription, not the caller's query. */
const ACCOUNT_CODES = new Set([
  "SUBSCRIPTION_TOKEN_INVALID",
  "SUBSCRIPTION_NOT_FOUND",
  "OPTION_NOT_IN_PLAN",
  "RATE_LIMITED",
  "QUOTA_LIMITED",
]);

/** How one of Brave's searches differs: its endpoint, extra parameters, where its hits are and what a hit says. */
interface BraveSearch {
  endpoint: "web" | "news" | "images";
  params?(read: InputReader, params: URLSearchParams): void;
  hits(body: unknown): unknown;
  result(r: Record<string, unknown>): Record<string, unknown>;
}

function braveSearch(search: BraveSearch): CapabilityHandler {
  return {
    request(input, ctx) {
      const read = new InputReader(KEY, input);
      const params = new URLSearchParams({ q: read.string("query", true) });
      const count = read.number("count", { integer: true, min: 1, max: 20 });
      if (count !== undefined) params.set("count", String(count));
      search.params?.(read, params);
      return {
        method: "GET",
        url: `${ctx.baseUrl}/res/v1/${search.endpoint}/search?${params.toString()}`,
        headers: { Accept: "application/json", ...ourKeyAs(ctx, "X-Subscription-Token") },
      };
    },
    parse(res) {
      checkStatus(res);
      const list = search.hits(res.body);
      if (!Array.isArray(list)) throw invalidResponse(KEY, res, "without results");
      const results = list.filter(isRecord).filter((r) => typeof r.url === "string");
      return { status: "completed", data: { results: results.map((r) => search.result(r)) } };
    },
  };
}

function checkStatus(res: RailResponse): void {
  if (res.status === 200) return;
  const err = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
  const code = stringField(err, "code");
  throw vendorError(KEY, res, {
    code,
    message: stringField(err, "detail"),
    ...(code && ACCOUNT_CODES.has(code) ? { blame: "provider" } : {}),
  });
}

/** A web or news hit. */
const pageHit = (r: Record<string, unknown>) => ({
  title: stringField(r, "title") ?? null,
  url: r.url,
  snippet: stringField(r, "description") ?? null,
  publishedAt: stringField(r, "page_age") ?? null,
});

export const braveProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.search.brave.com" },
  capabilities: {
    "search.web": braveSearch({
      endpoint: "web",
      hits: (body) => (isRecord(body) && isRecord(body.web) ? body.web.results : []),
      result: pageHit,
    }),
    "search.news": braveSearch({
      endpoint: "news",
      params(read, params) {
        const freshness = read.string("freshness");
        if (freshness === undefined) return;
        const code = FRESHNESS[freshness];
        if (!code) throw inputRefusal(KEY, "`freshness` must be day, week, month or year", "freshness");
        params.set("freshness", code);
      },
      hits: (body) => (isRecord(body) ? body.results : undefined),
      result: (r) => ({ ...pageHit(r), source: stringField(r.meta_url, "hostname") ?? null, age: stringField(r, "age") ?? null }),
    }),
    "search.images": braveSearch({
      endpoint: "images",
      params: (_read, params) => params.set("safesearch", "strict"),
      hits: (body) => (isRecord(body) ? body.results : undefined),
      result: (r) => ({
        title: stringField(r, "title") ?? null,
        imageUrl: stringField(r.properties, "url") ?? null,
        thumbnailUrl: stringField(r.thumbnail, "src") ?? null,
        sourceUrl: r.url,
        source: stringField(r, "source") ?? stringField(r.meta_url, "hostname") ?? null,
      }),
    }),
  },
});
