// Jina Reader (web.fetch): POST https://r.jina.ai/ {url} with `Accept: application/json` and
// `X-Return-Format: markdown` (bearer key on direct routes); 200 {code, status, data: {title, description,
// url, content, publishedTime, usage: {tokens}}}; errors {code, name, message} (422 for a URL it cannot
// read or a page above the token budget, 402 when our balance is empty, 429 with Retry-After).
// Jina bills by the tokens it returns, so every call sends Jina's own caps (its Reader headers):
// `X-Timeout` (seconds it may spend loading the page, within our deadline) and `X-Token-Budget` (the most
// tokens it may return and bill; a larger page is refused, not billed). The call is charged the tokens
// Jina reports (`data.usage.tokens`, metered as the route's output_tokens bill driver) within the hold,
// which covers the budget (services/catalog/catalog/web.yaml).
import { InputReader } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { bearerAuth } from "./vendor-key";
import { vendorDeadlineSeconds } from "./vendor-deadline";

const KEY = "jina";

/** The most tokens one call may return (X-Token-Budget): the catalog's output_tokens cap for web.fetch.jina. */
export const JINA_TOKEN_BUDGET = 100_000;

export const jinaProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://r.jina.ai" },
  capabilities: {
    "web.fetch": {
      request(input, ctx) {
        const url = new InputReader(KEY, input).string("url", true);
        return {
          method: "POST",
          url: `${ctx.baseUrl}/`,
          headers: {
            Accept: "application/json",
            "X-Return-Format": "markdown",
            "X-Timeout": String(vendorDeadlineSeconds(ctx)),
            "X-Token-Budget": String(JINA_TOKEN_BUDGET),
            ...bearerAuth(ctx),
          },
          body: { url },
        };
      },
      parse(res) {
        if (res.status !== 200)
          throw vendorError(KEY, res, { code: stringField(res.body, "name"), message: stringField(res.body, "message") });
        const data = isRecord(res.body) && isRecord(res.body.data) ? res.body.data : undefined;
        const content = stringField(data, "content");
        if (!data || content === undefined) throw invalidResponse(KEY, res, "without data.content");
        const usage = isRecord(data.usage) ? data.usage.tokens : undefined;
        return {
          status: "completed",
          // What Jina bills; without it the call is charged its whole hold (pricing.ts meter).
          ...(typeof usage === "number" && Number.isInteger(usage) && usage >= 0 ? { billedUnits: { output_tokens: usage } } : {}),
          data: {
            url: stringField(data, "url") ?? null,
            title: stringField(data, "title") ?? null,
            description: stringField(data, "description") || null,
            publishedTime: stringField(data, "publishedTime") ?? null,
            markdown: content,
          },
        };
      },
    },
  },
});
