import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { deeplProvider } from "./deepl";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(deeplProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("DeepL adapter (translation.text.translate)", () => {
  it("builds POST /v2/translate with DeepL-Auth-Key and a text list", () => {
    expect(
      adapter.buildRequest(
        "translation.text.translate",
        { text: "Hello", targetLanguage: "de", sourceLanguage: "en", formality: "more" },
        { baseUrl: "https://api.deepl.com", credentials: { apiKey: "dl:fx" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.deepl.com/v2/translate",
      headers: { Authorization: "DeepL-Auth-Key dl:fx" },
      body: { text: ["Hello"], target_lang: "DE", source_lang: "EN", formality: "more" },
    });
  });

  it("normalizes translations; quota (456) and key (403) errors blame the provider", () => {
    expect(
      adapter.parseResponse(
        "translation.text.translate",
        response(200, { translations: [{ detected_source_language: "EN", text: "Hallo" }] }),
        {},
      ).data,
    ).toEqual({ translations: [{ text: "Hallo", detectedSourceLanguage: "en" }] });
    expect(() => adapter.parseResponse("translation.text.translate", response(456, { message: "Quota exceeded" }), {})).toThrow(
      expect.objectContaining({ blame: "provider", retryable: false }),
    );
    expect(() =>
      adapter.parseResponse("translation.text.translate", response(400, { message: "Value for 'target_lang' not supported." }), {}),
    ).toThrow(expect.objectContaining({ blame: "input" }));
  });

  it("translates through the sandbox with our key", async () => {
    const { result } = await routes.execute("deepl", "direct", "translation.text.translate", {
      text: ["Good morning", "Thanks"],
      targetLanguage: "FR",
    });
    expect(result.data).toEqual({
      translations: [
        { text: "Bon matin", detectedSourceLanguage: "en" },
        { text: "Merci", detectedSourceLanguage: "en" },
      ],
    });
  });
});
