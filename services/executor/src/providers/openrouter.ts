// OpenRouter (models.list): GET {baseUrl}/models (public; our key sent when configured) → {data: [{id,
// name, context_length, pricing: {prompt, completion} (USD per token, as decimal strings), top_provider:
// {max_completion_tokens}}]}; errors {error: {code, message}}. `vendor` keeps the models whose id starts
// with `<vendor>/`; prices are normalized to USD per million tokens.
import { InputReader } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { bearerAuth } from "./vendor-key";

const KEY = "openrouter";

/** USD per token (OpenRouter's decimal string) → USD per million tokens, or null when not a price. */
function perMillion(value: unknown): number | null {
  const n = typeof value === "string" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1e6 * 1e6) / 1e6 : null;
}

export const openrouterProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://openrouter.ai/api/v1" },
  keyless: true,
  capabilities: {
    "models.list": {
      request(input, ctx) {
        new InputReader(KEY, input).string("vendor");
        return {
          method: "GET",
          url: `${ctx.baseUrl}/models`,
          headers: bearerAuth(ctx),
        };
      },
      parse(res, input) {
        if (res.status !== 200) {
          const error = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
          const code = error && typeof error.code === "number" ? String(error.code) : stringField(error, "code");
          throw vendorError(KEY, res, { ...(code ? { code } : {}), message: stringField(error, "message") });
        }
        const data = isRecord(res.body) && Array.isArray(res.body.data) ? res.body.data.filter(isRecord) : undefined;
        if (!data) throw invalidResponse(KEY, res, "without data");
        const vendor = new InputReader(KEY, input).string("vendor")?.toLowerCase();
        const models = data
          .filter((m) => typeof m.id === "string" && (!vendor || m.id.toLowerCase().startsWith(`${vendor}/`)))
          .map((m) => {
            const id = m.id as string;
            const pricing = isRecord(m.pricing) ? m.pricing : {};
            const top = isRecord(m.top_provider) ? m.top_provider : {};
            return {
              id,
              name: stringField(m, "name") ?? id,
              vendor: id.includes("/") ? id.slice(0, id.indexOf("/")) : null,
              contextLength: typeof m.context_length === "number" ? m.context_length : null,
              maxOutputTokens: typeof top.max_completion_tokens === "number" ? top.max_completion_tokens : null,
              inputUsdPerMillionTokens: perMillion(pricing.prompt),
              outputUsdPerMillionTokens: perMillion(pricing.completion),
            };
          });
        return { status: "completed", data: { models, count: models.length } };
      },
    },
  },
});
