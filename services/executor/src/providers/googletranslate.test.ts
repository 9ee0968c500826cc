import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { googletranslateProvider } from "./googletranslate";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(googletranslateProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const ctx = { baseUrl: "https://translation.googleapis.com", credentials: { apiKey: "AIza1" } };

describe("Google Cloud Translation adapter (translation.text.translate, translation.language.detect)", () => {
  it("builds v2 translate with plain-text format and Google's tag spelling, and v2 detect; the key in a header", () => {
    expect(adapter.buildRequest("translation.text.translate", { text: "Hi", targetLanguage: "PT-br", sourceLanguage: "EN" }, ctx)).toEqual({
      method: "POST",
      url: "https://translation.googleapis.com/language/translate/v2",
      headers: { "X-goog-api-key": "AIza1" },
      body: { q: ["Hi"], target: "pt-BR", source: "en", format: "text" },
    });
    expect(adapter.buildRequest("translation.language.detect", { text: "Hallo" }, ctx)).toEqual({
      method: "POST",
      url: "https://translation.googleapis.com/language/translate/v2/detect",
      headers: { "X-goog-api-key": "AIza1" },
      body: { q: ["Hallo"] },
    });
  });

  it("refuses a formality it cannot honour, naming the field, and lets the default through", () => {
    expect(() => adapter.buildRequest("translation.text.translate", { text: "Hi", targetLanguage: "de", formality: "more" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", blame: "input", field: "formality" }),
    );
    expect(
      adapter.buildRequest("translation.text.translate", { text: "Hi", targetLanguage: "de", formality: "default" }, ctx).body,
    ).not.toHaveProperty("formality");
  });

  it("normalizes translations like the other translate routes, and the most confident detection", () => {
    const translated = { data: { translations: [{ translatedText: "Hallo", detectedSourceLanguage: "en" }] } };
    expect(
      adapter.parseResponse("translation.text.translate", response(200, translated), { text: "Hi", targetLanguage: "de" }).data,
    ).toEqual({
      translations: [{ text: "Hallo", detectedSourceLanguage: "en" }],
    });
    const detections = {
      data: {
        detections: [
          [
            { language: "fr", confidence: 0.4 },
            { language: "de", confidence: 0.9, isReliable: false },
          ],
        ],
      },
    };
    expect(adapter.parseResponse("translation.language.detect", response(200, detections), { text: "Hallo" }).data).toEqual({
      language: "de",
      confidence: 0.9,
    });
    expect(() => adapter.parseResponse("translation.language.detect", response(200, { data: { detections: [] } }), { text: "x" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("blames our key for API_KEY_INVALID although Google sends a 400, the caller for an invalid value", () => {
    const badKey = {
      error: {
        code: 400,
        message: "API key not valid.",
        status: "INVALID_ARGUMENT",
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
      },
    };
    expect(() => adapter.parseResponse("translation.language.detect", response(400, badKey), { text: "x" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "provider", vendorCode: "API_KEY_INVALID" }),
    );
    const badValue = { error: { code: 400, message: "Invalid Value", status: "INVALID_ARGUMENT", errors: [{ reason: "invalid" }] } };
    expect(() => adapter.parseResponse("translation.text.translate", response(400, badValue), { text: "x", targetLanguage: "xx" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "input", vendorCode: "INVALID_ARGUMENT" }),
    );
  });

  it("translates and detects on the direct API through the sandbox", async () => {
    const translated = await routes.execute("googletranslate", "direct", "translation.text.translate", {
      text: "Where is the train station?",
      targetLanguage: "de",
    });
    expect(translated.result.data).toEqual({ translations: [{ text: "Wo ist der Bahnhof?", detectedSourceLanguage: "en" }] });
    const detected = await routes.execute("googletranslate", "direct", "translation.language.detect", {
      text: "Où est la gare, s'il vous plaît ?",
    });
    expect(detected.result.data).toMatchObject({ language: "fr", confidence: expect.any(Number) });
  });

  it("reports an unknown target language as the caller's problem", async () => {
    await expect(
      routes.executeError("googletranslate", "direct", "translation.text.translate", { text: "Hi", targetLanguage: "tlh" }),
    ).resolves.toMatchObject({ kind: "http_4xx", status: 400, blame: "input" });
  });
});
