import type { ProviderAdapter } from "../domain/provider-port";
import type { RailResponse } from "../domain/rail-port";
import { openaiProvider } from "./openai";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(openaiProvider);
const ctx = { baseUrl: "https://api.openai.com/v1", credentials: { apiKey: "sk-1" } };

describe("OpenAI images adapter (media.image.generate)", () => {
  it("asks gpt-image-1 for one low-quality JPEG in the size of the aspect ratio", () => {
    expect(adapter.buildRequest("media.image.generate", { prompt: "a fox", aspectRatio: "16:9" }, ctx)).toEqual({
      method: "POST",
      url: "https://api.openai.com/v1/images/generations",
      headers: { Authorization: "Bearer sk-1" },
      body: {
        model: "gpt-image-1",
        prompt: "a fox",
        n: 1,
        size: "1536x1024",
        quality: "low",
        output_format: "jpeg",
        output_compression: 80,
      },
    });
  });

  it("refuses what the route's price does not cover or the vendor cannot do, naming the field", () => {
    for (const [field, input] of [
      ["prompt", { prompt: "é".repeat(501) }],
      ["model", { prompt: "p", model: "flux-schnell" }],
      ["seed", { prompt: "p", seed: 4 }],
      ["aspectRatio", { prompt: "p", aspectRatio: "2:1" }],
    ] as const)
      expect(() => adapter.buildRequest("media.image.generate", input, ctx)).toThrow(
        expect.objectContaining({ kind: "invalid_input", field }),
      );
  });

  it("maps OpenAI's error body, and a 200 without b64_json is an invalid response", () => {
    const res = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
    expect(() =>
      adapter.parseResponse("media.image.generate", res(400, { error: { message: "bad", code: "moderation_blocked" } }), { prompt: "p" }),
    ).toThrow(expect.objectContaining({ kind: "http_4xx", vendorCode: "moderation_blocked" }));
    expect(() => adapter.parseResponse("media.image.generate", res(200, { data: [{}] }), { prompt: "p" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("generates over the sandbox's API with our key: the JPEG inline as base64", async () => {
    const { result } = await routes.execute("openai", "direct", "media.image.generate", { prompt: "a lighthouse", aspectRatio: "9:16" });
    const image = (result.data.images as Array<Record<string, unknown>>)[0]!;
    expect(image).toMatchObject({ url: null, width: 1024, height: 1536, contentType: "image/jpeg" });
    const bytes = Buffer.from(image.base64 as string, "base64");
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });
});
