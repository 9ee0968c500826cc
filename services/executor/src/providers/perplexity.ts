// Perplexity Sonar (search.answer): POST /chat/completions {model: "sonar", messages: [{role: "user", content:
// query}], max_tokens, search_domain_filter?} with `Authorization: Bearer` on direct routes; 200 a
// chat.completion whose first choice is the answer, with `search_results` [{title, url, date}] (or bare
// `citations` URLs) as its sources; errors {error: {message, type}}. The domain filter takes at most
// 20 entries, excluded ones prefixed with `-`. max_tokens bounds the tokens the fixed route price covers.
import { InputReader, inputRefusal } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { bearerAuth } from "./vendor-key";

const KEY = "perplexity";

const MODEL = "sonar";
/** The answer length the route's price was computed for (about 1k output tokens). */
const MAX_ANSWER_TOKENS = 1000;
const MAX_DOMAIN_FILTER = 20;

export const perplexityProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.perplexity.ai" },
  capabilities: {
    "search.answer": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const query = read.string("query", true);
        read.number("maxResults", { integer: true, min: 1, max: 100 });
        const filter = [...read.strings("includeDomains"), ...read.strings("excludeDomains").map((d) => `-${d}`)];
        if (filter.length > MAX_DOMAIN_FILTER)
          throw inputRefusal(KEY, `Perplexity filters at most ${MAX_DOMAIN_FILTER} domains in all`, "includeDomains");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/chat/completions`,
          headers: bearerAuth(ctx),
          body: {
            model: MODEL,
            messages: [{ role: "user", content: query }],
            max_tokens: MAX_ANSWER_TOKENS,
            ...(filter.length > 0 ? { search_domain_filter: filter } : {}),
          },
        };
      },
      parse(res, input) {
        if (res.status !== 200) {
          const err = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
          throw vendorError(KEY, res, { code: stringField(err, "type"), message: stringField(err, "message") });
        }
        const choice = isRecord(res.body) && Array.isArray(res.body.choices) ? res.body.choices[0] : undefined;
        const answer = isRecord(choice) ? stringField(choice.message, "content") : undefined;
        if (answer === undefined) throw invalidResponse(KEY, res, "without an answer");
        const body = res.body as Record<string, unknown>;
        const sources = Array.isArray(body.search_results)
          ? body.search_results.filter(isRecord).filter((r) => typeof r.url === "string")
          : Array.isArray(body.citations)
            ? body.citations.filter((u): u is string => typeof u === "string").map((url) => ({ url }))
            : [];
        const max = new InputReader(KEY, input).number("maxResults", { integer: true, min: 1 }) ?? sources.length;
        const id = stringField(body, "id");
        return {
          status: "completed",
          ...(id ? { providerMessageId: id } : {}),
          data: {
            answer,
            citations: sources.slice(0, max).map((s) => ({
              url: s.url,
              title: stringField(s, "title") ?? null,
              author: null,
              publishedDate: stringField(s, "date") ?? null,
            })),
          },
        };
      },
    },
  },
});
