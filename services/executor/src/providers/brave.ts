// Brave Search API (search.web, search.news, search.images): GET /res/v1/{web,news,images}/search?q=&count=
// (`X-Subscription-Token` on direct routes), with `freshness` pd/pw/pm/py on news and `safesearch=strict`
// on images. Web results are under `web.results`, news and images under `results`; errors are
// {type: "ErrorResponse", error: {code, detail}}. Brave answers a bad token with a 422 like a bad
// parameter, so its code decides the blame: the token is ours, not the caller's.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";

const ENDPOINT: Readonly<Record<string, string>> = { "search.web": "web", "search.news": "news", "search.images": "images" };
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

export class BraveAdapter implements ProviderAdapter {
  readonly providerKey = "brave";
  readonly capabilityKeys = ["search.web", "search.news", "search.images"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
    const params = new URLSearchParams({ q: read.string("query", true) });
    const count = read.number("count", { integer: true, min: 1, max: 20 });
    if (count !== undefined) params.set("count", String(count));
    if (capabilityKey === "search.news") {
      const freshness = read.string("freshness");
      if (freshness !== undefined) {
        const code = FRESHNESS[freshness];
        if (!code) throw inputRefusal(this.providerKey, "`freshness` must be day, week, month or year", "freshness");
        params.set("freshness", code);
      }
    }
    if (capabilityKey === "search.images") params.set("safesearch", "strict");
    return {
      method: "GET",
      url: `${ctx.baseUrl}/res/v1/${ENDPOINT[capabilityKey]}/search?${params.toString()}`,
      headers: { Accept: "application/json", ...(ctx.credentials ? { "X-Subscription-Token": ctx.credentials.apiKey } : {}) },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) {
      const err = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
      const code = stringField(err, "code");
      throw vendorError(this.providerKey, res, {
        code,
        message: stringField(err, "detail"),
        ...(code && ACCOUNT_CODES.has(code) ? { blame: "provider" } : {}),
      });
    }
    const list =
      capabilityKey === "search.web"
        ? isRecord(res.body) && isRecord(res.body.web)
          ? res.body.web.results
          : []
        : isRecord(res.body)
          ? res.body.results
          : undefined;
    if (!Array.isArray(list)) throw invalidResponse(this.providerKey, res, "without results");
    const results = list.filter(isRecord).filter((r) => typeof r.url === "string");
    return { status: "completed", data: { results: results.map((r) => this.result(capabilityKey, r)) } };
  }

  private result(capabilityKey: string, r: Record<string, unknown>): Record<string, unknown> {
    const title = stringField(r, "title") ?? null;
    if (capabilityKey === "search.images") {
      return {
        title,
        imageUrl: stringField(r.properties, "url") ?? null,
        thumbnailUrl: stringField(r.thumbnail, "src") ?? null,
        sourceUrl: r.url,
        source: stringField(r, "source") ?? stringField(r.meta_url, "hostname") ?? null,
      };
    }
    const base = { title, url: r.url, snippet: stringField(r, "description") ?? null, publishedAt: stringField(r, "page_age") ?? null };
    if (capabilityKey === "search.news")
      return { ...base, source: stringField(r.meta_url, "hostname") ?? null, age: stringField(r, "age") ?? null };
    return base;
  }
}

export const braveProvider: ProviderModule = {
  providerKey: "brave",
  defaultBaseUrls: { direct: "https://api.search.brave.com" },
  create: () => new BraveAdapter(),
};
