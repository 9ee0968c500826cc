// Exa (search.answer, search.web): POST /answer {query} (`x-api-key` on direct routes); 200 {answer,
// citations[], requestId}; POST /search {query, numResults, contents: {highlights}} → 200 {requestId,
// results: [{url, title, publishedDate, author, highlights}]}; errors {requestId, error, tag}.
// `maxResults` trims the citations. The answer request carries no domain filter yet, so
// `includeDomains`/`excludeDomains` are refused (invalid_input, which makes the executor skip this
// route) rather than dropped: a search must not use the domains it was told to exclude.
import type { RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { webSearchResult } from "./web-search-result";

const KEY = "exa";

/** Contract fields of search.answer this adapter does not send yet. */
const UNSUPPORTED_FIELDS = ["includeDomains", "excludeDomains"] as const;

const auth = (ctx: ProviderContext) => ourKeyAs(ctx, "x-api-key");

/** Exa's error body {error, tag}, or nothing on a 200. */
function checkStatus(res: RailResponse): void {
  if (res.status !== 200) throw vendorError(KEY, res, { code: stringField(res.body, "tag"), message: stringField(res.body, "error") });
}

export const exaProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.exa.ai" },
  capabilities: {
    "search.answer": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const query = read.string("query", true);
        read.number("maxResults", { integer: true, min: 1, max: 100 });
        for (const field of UNSUPPORTED_FIELDS) {
          if (input[field] !== undefined && input[field] !== null) throw inputRefusal(KEY, "not supported by the exa route yet", field);
        }
        return { method: "POST", url: `${ctx.baseUrl}/answer`, headers: auth(ctx), body: { query, text: false } };
      },
      parse(res, input) {
        checkStatus(res);
        const answer = stringField(res.body, "answer");
        const citations = isRecord(res.body) && Array.isArray(res.body.citations) ? res.body.citations.filter(isRecord) : undefined;
        if (answer === undefined || !citations) throw invalidResponse(KEY, res, "without answer and citations");
        const max = new InputReader(KEY, input).number("maxResults", { integer: true, min: 1 }) ?? citations.length;
        const requestId = stringField(res.body, "requestId");
        return {
          status: "completed",
          ...(requestId ? { providerMessageId: requestId } : {}),
          data: {
            answer,
            citations: citations.slice(0, max).map((c) => ({
              url: stringField(c, "url") ?? null,
              title: stringField(c, "title") ?? null,
              author: stringField(c, "author") ?? null,
              publishedDate: stringField(c, "publishedDate") ?? null,
              ...(stringField(c, "text") ? { snippet: stringField(c, "text") } : {}),
            })),
          },
        };
      },
    },
    "search.web": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const query = read.string("query", true);
        const count = read.number("count", { integer: true, min: 1, max: 100 });
        return {
          method: "POST",
          url: `${ctx.baseUrl}/search`,
          headers: auth(ctx),
          body: { query, numResults: count ?? 10, contents: { highlights: true } },
        };
      },
      parse(res) {
        checkStatus(res);
        // Exa's first highlight is the snippet.
        return webSearchResult(KEY, res, {
          requestId: "requestId",
          publishedAt: "publishedDate",
          snippet: (r) => (Array.isArray(r.highlights) && typeof r.highlights[0] === "string" ? r.highlights[0] : null),
        });
      },
    },
  },
});
