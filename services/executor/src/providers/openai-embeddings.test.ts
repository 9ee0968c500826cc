import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { MAX_INPUT_BYTES } from "./openai-embeddings";
import { openaiProvider } from "./openai";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(openaiProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("OpenAI embeddings adapter (models.embeddings.create)", () => {
  it("builds POST {baseUrl}/embeddings with float vectors and the default model", () => {
    expect(
      adapter.buildRequest(
        "models.embeddings.create",
        { input: ["a", "b"], dimensions: 256 },
        { baseUrl: "https://api.openai.com/v1", credentials: { apiKey: "sk-1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.openai.com/v1/embeddings",
      headers: { Authorization: "Bearer sk-1" },
      body: { input: ["a", "b"], model: "text-embedding-3-small", dimensions: 256, encoding_format: "float" },
    });
  });

  it("refuses texts whose bytes could cost more tokens than one call is sold for", () => {
    const big = "é".repeat(MAX_INPUT_BYTES / 2 + 1);
    expect(() => adapter.buildRequest("models.embeddings.create", { input: [big] }, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "invalid_input", blame: "input", field: "input" }),
    );
  });

  it("orders vectors by index, refuses answers without vectors and maps OpenAI's errors", () => {
    const body = {
      data: [
        { index: 1, embedding: [0, 1] },
        { index: 0, embedding: [1, 0] },
      ],
      model: "text-embedding-3-small",
      usage: { prompt_tokens: 2 },
    };
    expect(adapter.parseResponse("models.embeddings.create", response(200, body), {}).data).toEqual({
      model: "text-embedding-3-small",
      embeddings: [
        [1, 0],
        [0, 1],
      ],
      dimensions: 2,
      usage: { promptTokens: 2 },
    });
    expect(() => adapter.parseResponse("models.embeddings.create", response(200, { data: [{ index: 0 }] }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() =>
      adapter.parseResponse(
        "models.embeddings.create",
        response(404, { error: { message: "no", type: "invalid_request_error", code: "model_not_found" } }),
        {},
      ),
    ).toThrow(expect.objectContaining({ blame: "input", vendorCode: "model_not_found" }));
  });

  it("embeds texts on the sandbox: one unit vector per text, the same text the same vector", async () => {
    const { result } = await routes.execute("openai", "direct", "models.embeddings.create", {
      input: ["hello", "world", "hello"],
      dimensions: 64,
    });
    const vectors = result.data.embeddings as number[][];
    expect(vectors).toHaveLength(3);
    expect(result.data.dimensions).toBe(64);
    expect(vectors[0]).toEqual(vectors[2]);
    expect(vectors[0]).not.toEqual(vectors[1]);
    expect(Math.hypot(...(vectors[1] as number[]))).toBeCloseTo(1, 3);
    expect(result.data.usage).toEqual({ promptTokens: 6 });
  });

  it("gets the sandbox's 400 for dimensions above the model's", async () => {
    const err = await routes.executeError("openai", "direct", "models.embeddings.create", {
      input: ["x"],
      model: "text-embedding-3-small",
      dimensions: 4096,
    });
    expect(err).toMatchObject({ kind: "http_4xx", status: 400, blame: "input", vendorCode: "invalid_value" });
  });
});
