// Tavily (search.web): POST /search {query, max_results, search_depth: "basic", topic: "general"} with
// `Authorization: Bearer tvly-…` on direct routes; 200 {results: [{title, url, content, score,
// published_date?}], request_id}; errors {detail: {error}}. Tavily's own 432 (plan limit) and 433
// (pay-as-you-go limit) are about our account, not the caller.
import { InputReader } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
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
        const results = isRecord(res.body) && Array.isArray(res.body.results) ? res.body.results.filter(isRecord) : undefined;
        if (!results) throw invalidResponse(KEY, res, "without results");
        const requestId = stringField(res.body, "request_id");
        return {
          status: "completed",
          ...(requestId ? { providerMessageId: requestId } : {}),
          data: {
            results: results
              .filter((r) => typeof r.url === "string")
              .map((r) => ({
                title: stringField(r, "title") ?? null,
                url: r.url,
                snippet: stringField(r, "content") ?? null,
                publishedAt: stringField(r, "published_date") ?? null,
              })),
          },
        };
      },
    },
  },
});
