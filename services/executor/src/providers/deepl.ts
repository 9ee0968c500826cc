// DeepL (translation.text.translate): POST /v2/translate with `Authorization: DeepL-Auth-Key <key>`
// and JSON {text: [...], target_lang, source_lang?, formality?}; 200 {translations: [{detected_source_language,
// text}]}; errors {message} (403 key, 456 quota, 429 rate).
import type { ProviderHttpRequest } from "../domain/rail-port";
import { InputReader } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "deepl";

export const deeplProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.deepl.com" },
  capabilities: {
    "translation.text.translate": {
      request(input, ctx): ProviderHttpRequest {
        const read = new InputReader(KEY, input);
        const source = read.string("sourceLanguage");
        const formality = read.string("formality");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v2/translate`,
          headers: ourKeyAs(ctx, "Authorization", "DeepL-Auth-Key "),
          body: {
            text: read.strings("text", true),
            target_lang: read.string("targetLanguage", true).toUpperCase(),
            ...(source ? { source_lang: source.toUpperCase() } : {}),
            ...(formality ? { formality } : {}),
          },
        };
      },
      parse(res) {
        if (res.status !== 200) throw vendorError(KEY, res, { message: stringField(res.body, "message") });
        const translations =
          isRecord(res.body) && Array.isArray(res.body.translations) ? res.body.translations.filter(isRecord) : undefined;
        if (!translations || translations.some((t) => typeof t.text !== "string")) throw invalidResponse(KEY, res, "without translations");
        return {
          status: "completed",
          data: {
            translations: translations.map((t) => ({
              text: t.text as string,
              detectedSourceLanguage: stringField(t, "detected_source_language")?.toLowerCase() ?? null,
            })),
          },
        };
      },
    },
  },
});
