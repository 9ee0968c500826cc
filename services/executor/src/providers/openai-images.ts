// OpenAI image generation (media.image.generate): POST {baseUrl}/images/generations {model: gpt-image-1,
// prompt, n: 1, size, quality: low, output_format: jpeg, output_compression} → {created, data: [{b64_json}],
// usage}; errors {error: {message, type, param, code}}. gpt-image-1 answers the image itself (base64,
// JPEG keeps it well under the answer cap), not a URL. The route's price covers one low-quality image
// at the largest size plus the text tokens of the longest prompt it takes (MAX_PROMPT_BYTES).
import { InputReader, inputRefusal } from "./input";
import { openAiError } from "./openai-error";
import type { CapabilityHandler } from "./provider-table";
import { invalidResponse, isRecord, stringField } from "./vendor-error";
import { bearerAuth } from "./vendor-key";

const IMAGE_MODEL = "gpt-image-1";
/** The longest prompt the route's price covers: OpenAI also bills the prompt's text tokens (at most one per byte). */
const MAX_PROMPT_BYTES = 1000;

/** gpt-image-1's sizes for the contract's aspect ratios (it has square, landscape 3:2 and portrait 2:3). */
const SIZES: Readonly<Record<string, { size: string; width: number; height: number }>> = {
  "1:1": { size: "1024x1024", width: 1024, height: 1024 },
  "4:3": { size: "1536x1024", width: 1536, height: 1024 },
  "16:9": { size: "1536x1024", width: 1536, height: 1024 },
  "3:4": { size: "1024x1536", width: 1024, height: 1536 },
  "9:16": { size: "1024x1536", width: 1024, height: 1536 },
};

/** media.image.generate as this vendor API speaks it, for `providerKey` (every OpenAI-compatible vendor). */
export function imageGeneration(providerKey: string): CapabilityHandler {
  return {
    request(input, ctx) {
      const read = new InputReader(providerKey, input);
      const prompt = read.string("prompt", true);
      if (Buffer.byteLength(prompt, "utf8") > MAX_PROMPT_BYTES)
        throw inputRefusal(providerKey, `the OpenAI route takes prompts of at most ${MAX_PROMPT_BYTES} bytes`, "prompt");
      const model = read.string("model");
      if (model !== undefined && model !== IMAGE_MODEL) throw inputRefusal(providerKey, `model must be ${IMAGE_MODEL} on OpenAI`, "model");
      if (read.number("seed", { integer: true, min: 0 }) !== undefined)
        throw inputRefusal(providerKey, "OpenAI image generation takes no seed", "seed");
      const aspectRatio = read.string("aspectRatio") ?? "1:1";
      const size = SIZES[aspectRatio];
      if (!size) throw inputRefusal(providerKey, `aspectRatio must be one of ${Object.keys(SIZES).join(", ")}`, "aspectRatio");
      return {
        method: "POST",
        url: `${ctx.baseUrl}/images/generations`,
        headers: bearerAuth(ctx),
        body: { model: IMAGE_MODEL, prompt, n: 1, size: size.size, quality: "low", output_format: "jpeg", output_compression: 80 },
      };
    },

    parse(res, input) {
      if (res.status !== 200) throw openAiError(providerKey, res);
      const first = isRecord(res.body) && Array.isArray(res.body.data) && isRecord(res.body.data[0]) ? res.body.data[0] : undefined;
      const base64 = stringField(first, "b64_json");
      if (!base64) throw invalidResponse(providerKey, res, "without data[0].b64_json");
      const size = SIZES[new InputReader(providerKey, input).string("aspectRatio") ?? "1:1"]!;
      return {
        status: "completed",
        data: { images: [{ url: null, base64, width: size.width, height: size.height, contentType: "image/jpeg" }] },
      };
    },
  };
}
