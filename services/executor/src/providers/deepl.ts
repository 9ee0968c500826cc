// DeepL (translation.text.translate): POST /v2/translate with `Authorization: DeepL-Auth-Key <key>`
// and JSON {text: [...], target_lang, source_lang?, formality?}; 200 {translations: [{detected_source_language,
// text}]}; errors {message} (403 key, 456 quota, 429 rate).
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";

export class DeeplAdapter implements ProviderAdapter {
  readonly providerKey = "deepl";
  readonly capabilityKeys = ["translation.text.translate"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const read = new InputReader(this.providerKey, input);
    const source = read.string("sourceLanguage");
    const formality = read.string("formality");
    return {
      method: "POST",
      url: `${ctx.baseUrl}/v2/translate`,
      headers: ctx.credentials ? { Authorization: `DeepL-Auth-Key ${ctx.credentials.apiKey}` } : {},
      body: {
        text: read.strings("text", true),
        target_lang: read.string("targetLanguage", true).toUpperCase(),
        ...(source ? { source_lang: source.toUpperCase() } : {}),
        ...(formality ? { formality } : {}),
      },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) throw vendorError(this.providerKey, res, { message: stringField(res.body, "message") });
    const translations = isRecord(res.body) && Array.isArray(res.body.translations) ? res.body.translations.filter(isRecord) : undefined;
    if (!translations || translations.some((t) => typeof t.text !== "string"))
      throw invalidResponse(this.providerKey, res, "without translations");
    return {
      status: "completed",
      data: {
        translations: translations.map((t) => ({
          text: t.text as string,
          detectedSourceLanguage: stringField(t, "detected_source_language")?.toLowerCase() ?? null,
        })),
      },
    };
  }
}

export const deeplProvider: ProviderModule = {
  providerKey: "deepl",
  defaultBaseUrls: { direct: "https://api.deepl.com" },
  create: () => new DeeplAdapter(),
};
