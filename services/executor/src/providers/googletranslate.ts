// Google Cloud Translation v2 (translation.text.translate, translation.language.detect), `X-goog-api-key` on
// direct routes (keeping the key out of URLs): POST /language/translate/v2 {q: [text], target, source?,
// format: "text"} → {data: {translations: [{translatedText, detectedSourceLanguage?}]}} (format text, else
// Google HTML-escapes the answer); POST /language/translate/v2/detect {q: [text]} → {data: {detections:
// [[{language, confidence}]]}}. Errors {error: {code, message, status, details}}: Google answers a bad
// key with a 400 like a bad value, so its API_KEY_INVALID reason decides the blame. No formality control.
import type { RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "googletranslate";

/** ErrorInfo reasons about our API key or project, not the caller's text. */
const ACCOUNT_REASONS = new Set([
  "API_KEY_INVALID",
  "API_KEY_SERVICE_BLOCKED",
  "SERVICE_DISABLED",
  "BILLING_DISABLED",
  "RATE_LIMIT_EXCEEDED",
]);

/** `pt-br` → `pt-BR`, `DE` → `de`: Google's spelling of a language tag. */
function googleTag(tag: string): string {
  const [lang, ...rest] = tag.trim().split(/[-_]/);
  return [lang?.toLowerCase(), ...rest.map((r) => r.toUpperCase())].join("-");
}

const auth = (ctx: ProviderContext) => ourKeyAs(ctx, "X-goog-api-key");

/** The answer's `data`, once its status is 200; an error's ErrorInfo reason decides the blame. */
function dataOf(res: RailResponse): Record<string, unknown> | undefined {
  if (res.status !== 200) {
    const err = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
    const details = err && Array.isArray(err.details) ? err.details : [];
    const reason = details.map((d) => stringField(d, "reason")).find((r) => r !== undefined);
    throw vendorError(KEY, res, {
      code: reason ?? stringField(err, "status"),
      message: stringField(err, "message"),
      ...(reason && ACCOUNT_REASONS.has(reason) ? { blame: "provider" } : {}),
    });
  }
  return isRecord(res.body) && isRecord(res.body.data) ? res.body.data : undefined;
}

export const googletranslateProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://translation.googleapis.com" },
  capabilities: {
    "translation.text.translate": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const q = [read.string("text", true)];
        const formality = read.string("formality");
        if (formality !== undefined && formality !== "default")
          throw inputRefusal(KEY, "Google Translate has no formality control", "formality");
        const source = read.string("sourceLanguage");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/language/translate/v2`,
          headers: auth(ctx),
          body: {
            q,
            target: googleTag(read.string("targetLanguage", true)),
            ...(source ? { source: googleTag(source) } : {}),
            format: "text",
          },
        };
      },
      parse(res, input) {
        const data = dataOf(res);
        const translations = data && Array.isArray(data.translations) ? data.translations.filter(isRecord) : [];
        const text = stringField(translations[0], "translatedText");
        if (text === undefined) throw invalidResponse(KEY, res, "without translations");
        const source = new InputReader(KEY, input).string("sourceLanguage");
        const detected = stringField(translations[0], "detectedSourceLanguage") ?? (source ? googleTag(source) : undefined);
        return { status: "completed", data: { translations: [{ text, detectedSourceLanguage: detected?.toLowerCase() ?? null }] } };
      },
    },
    "translation.language.detect": {
      request(input, ctx) {
        const q = [new InputReader(KEY, input).string("text", true)];
        return { method: "POST", url: `${ctx.baseUrl}/language/translate/v2/detect`, headers: auth(ctx), body: { q } };
      },
      parse(res) {
        const data = dataOf(res);
        const first =
          data && Array.isArray(data.detections) && Array.isArray(data.detections[0]) ? data.detections[0].filter(isRecord) : [];
        const best = [...first].sort((a, b) => Number(b.confidence ?? 0) - Number(a.confidence ?? 0))[0];
        const language = stringField(best, "language");
        if (!best || !language) throw invalidResponse(KEY, res, "without a detection");
        return { status: "completed", data: { language, confidence: typeof best.confidence === "number" ? best.confidence : null } };
      },
    },
  },
});
