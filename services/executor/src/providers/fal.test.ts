import type { ProviderAdapter } from "../domain/provider-port";
import type { RailResponse } from "../domain/rail-port";
import { falProvider } from "./fal";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(falProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("fal adapter (media.image.generate, media.image.edit)", () => {
  it("builds the flux/schnell call with one image at most 1 megapixel, the key only on the direct API", () => {
    expect(
      adapter.buildRequest(
        "media.image.generate",
        { prompt: "a fox", aspectRatio: "16:9", seed: 3 },
        { baseUrl: "https://fal.run", credentials: { apiKey: "k1" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://fal.run/fal-ai/flux/schnell",
      headers: { authorization: "Key k1" },
      body: { prompt: "a fox", image_size: "landscape_16_9", num_images: 1, enable_safety_checker: true, seed: 3 },
    });
    expect(adapter.buildRequest("media.image.generate", { prompt: "a fox" }, { baseUrl: "https://fal.mpp.example" })).toMatchObject({
      headers: {},
      body: { image_size: "square_hd" },
    });
  });

  it("refuses a model or aspect ratio it cannot serve at the route's price, naming the field", () => {
    for (const [field, input] of [
      ["model", { prompt: "p", model: "flux-pro-ultra" }],
      ["aspectRatio", { prompt: "p", aspectRatio: "2:1" }],
    ] as const)
      expect(() => adapter.buildRequest("media.image.generate", input, { baseUrl: "https://x" })).toThrow(
        expect.objectContaining({ kind: "invalid_input", blame: "input", field }),
      );
  });

  it("builds the Kontext edit call with the image URL", () => {
    expect(
      adapter.buildRequest("media.image.edit", { prompt: "stormy", imageUrl: "https://img/x.png" }, { baseUrl: "https://fal.run" }).body,
    ).toEqual({
      prompt: "stormy",
      image_url: "https://img/x.png",
      num_images: 1,
    });
  });

  it("maps fal's 422 detail list and its plain detail to vendor errors", () => {
    const refused = response(422, { detail: [{ loc: ["body", "prompt"], msg: "field required", type: "value_error.missing" }] });
    expect(() => adapter.parseResponse("media.image.generate", refused, {})).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "input", message: expect.stringContaining("prompt: field required") }),
    );
    expect(() => adapter.parseResponse("media.image.generate", response(401, { detail: "Invalid API key" }), {})).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "provider" }),
    );
    expect(() => adapter.parseResponse("media.image.generate", response(200, { images: [] }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("generates over the sandbox's MPP host, paid, and normalizes the images", async () => {
    const { res, result } = await routes.execute("fal", "mpp", "media.image.generate", { prompt: "a lighthouse", aspectRatio: "9:16" });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "3000", settlement: "settled" });
    expect(result.data).toMatchObject({
      images: [{ url: expect.stringMatching(/^https:\/\/v3\.fal\.media\//), width: 576, height: 1024, contentType: "image/jpeg" }],
      seed: 42,
    });
    expect(result.providerMessageId).toEqual(expect.any(String));
  });

  it("edits over the direct API with the key, paying the Kontext price on MPP", async () => {
    const direct = await routes.execute("fal", "direct", "media.image.edit", { prompt: "stormy", imageUrl: "https://img.example/x.png" });
    expect(direct.result.data.images).toEqual([expect.objectContaining({ width: 1024, height: 1024 })]);
    const paid = await routes.execute("fal", "mpp", "media.image.edit", { prompt: "stormy", imageUrl: "https://img.example/x.png" });
    expect(paid.res.payment).toMatchObject({ rail: "mpp", amountAtomic: "40000" });
  });

  it("maps an injected outage to a retryable provider error", async () => {
    routes.sandbox().control.setFault({ provider: "fal", mode: "5xx", count: 1 });
    expect(await routes.executeError("fal", "mpp", "media.image.generate", { prompt: "p" })).toMatchObject({
      kind: "http_5xx",
      retryable: true,
      blame: "provider",
    });
  });
});
