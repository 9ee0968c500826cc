import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { openrouterProvider } from "./openrouter";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(openrouterProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("OpenRouter adapter (models.list)", () => {
  it("asks GET {baseUrl}/models, with our key only when one is configured", () => {
    expect(adapter.buildRequest("models.list", {}, { baseUrl: "https://openrouter.ai/api/v1" })).toEqual({
      method: "GET",
      url: "https://openrouter.ai/api/v1/models",
      headers: {},
    });
    expect(adapter.buildRequest("models.list", {}, { baseUrl: "https://x", credentials: { apiKey: "sk-or-1" } }).headers).toEqual({
      Authorization: "Bearer sk-or-1",
    });
  });

  it("turns per-token decimal prices into USD per million tokens; maps {error: {code, message}}", () => {
    const body = {
      data: [
        {
          id: "openai/gpt-4o-mini",
          name: "GPT-4o-mini",
          context_length: 128000,
          pricing: { prompt: "0.00000015", completion: "0.0000006" },
        },
      ],
    };
    expect(adapter.parseResponse("models.list", response(200, body), {}).data).toEqual({
      models: [
        {
          id: "openai/gpt-4o-mini",
          name: "GPT-4o-mini",
          vendor: "openai",
          contextLength: 128000,
          maxOutputTokens: null,
          inputUsdPerMillionTokens: 0.15,
          outputUsdPerMillionTokens: 0.6,
        },
      ],
      count: 1,
    });
    expect(() => adapter.parseResponse("models.list", response(200, { models: [] }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() => adapter.parseResponse("models.list", response(502, { error: { code: 502, message: "upstream" } }), {})).toThrow(
      expect.objectContaining({ kind: "http_5xx", vendorCode: "502", retryable: true }),
    );
  });

  it("lists the sandbox's models, all or one vendor's", async () => {
    const all = await routes.execute("openrouter", "direct", "models.list", {});
    expect(all.result.data.count).toBe(5);
    const { result } = await routes.execute("openrouter", "direct", "models.list", { vendor: "DeepSeek" });
    expect(result.data).toEqual({
      models: [
        {
          id: "deepseek/deepseek-chat",
          name: "DeepSeek: DeepSeek V3",
          vendor: "deepseek",
          contextLength: 163840,
          maxOutputTokens: null,
          inputUsdPerMillionTokens: 0.27,
          outputUsdPerMillionTokens: 1.1,
        },
      ],
      count: 1,
    });
  });
});
