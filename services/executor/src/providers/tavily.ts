// Tavily (search.web): POST /search {query, max_results, search_depth: "basic", topic: "general"} with
// `Authorization: Bearer tvly-…` on direct routes; 200 {results: [{title, url, content, score,
// published_date?}], request_id}; errors {detail: {error}}. Tavily's own 432 (plan limit) and 433
// (pay-as-you-go limit) are about our account, not the caller.
import { InputReader } from "./input";
import { isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { webSearchResult } from "./web-search-result";
import { bearerAuth } from "./vendor-key";

const KEY = "tavily";

/** Tavily statuses for a usage limit of our plan. */
const PLAN_LIMITS = new Set([432, 433]);

export const tavilyProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.tavily.com" },
  capabilities: {
    "search.web": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const query = read.string("query", true);
        const count = read.number("count", { integer: true, min: 1, max: 20 });
        return {
          method: "POST",
          url: `${ctx.baseUrl}/search`,
          headers: bearerAuth(ctx),
          body: { query, max_results: count ?? 10, search_depth: "basic", topic: "general" },
        };
      },
      parse(res) {
        if (res.status !== 200) {
          const detail = isRecord(res.body) ? res.body.detail : undefined;
          const message = stringField(detail, "error") ?? (typeof detail === "string" ? detail : undefined);
          throw vendorError(KEY, res, { message, ...(PLAN_LIMITS.has(res.status) ? { blame: "provider" } : {}) });
        }
        return webSearchResult(KEY, res, {
          requestId: "request_id",
          publishedAt: "published_date",
          snippet: (r) => stringField(r, "content") ?? null,
        });
      },
    },
  },
});
