// fal.ai model endpoints (media.image.generate, media.image.edit), called synchronously: POST
// {baseUrl}/<model app> with the model's input as JSON (`Authorization: Key <key>` on the direct API;
// on an MPP host the payment replaces it) → 200 {images: [{url, width, height, content_type}], seed,
// has_nsfw_concepts, timings}. Errors: 422 {detail: [{loc, msg, type}]} for a refused input, else
// {detail: "<message>"}. One image per call at most 1 megapixel, so a call costs one route price.
import type { RailResponse } from "../domain/rail-port";
import type { ProviderContext, ProviderResult } from "../domain/provider-port";
import { InputReader, inputRefusal } from "./input";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";

const KEY = "fal";

/** The fal app each capability runs, by the contract's `model` name (the route's price is for these). */
const GENERATE_MODELS: Readonly<Record<string, string>> = { "flux-schnell": "fal-ai/flux/schnell" };
const EDIT_APP = "fal-ai/flux-pro/kontext";

/** fal's image_size presets for the contract's aspect ratios; each is at most 1 megapixel. */
const IMAGE_SIZES: Readonly<Record<string, string>> = {
  "1:1": "square_hd",
  "4:3": "landscape_4_3",
  "3:4": "portrait_4_3",
  "16:9": "landscape_16_9",
  "9:16": "portrait_16_9",
};

/** fal's 422 detail as one line: `prompt: field required`. */
function detailMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return typeof body === "string" ? body : undefined;
  if (typeof body.detail === "string") return body.detail;
  if (!Array.isArray(body.detail)) return undefined;
  return body.detail
    .filter(isRecord)
    .map((d) => `${Array.isArray(d.loc) ? d.loc.filter((p) => p !== "body").join(".") : "input"}: ${String(d.msg ?? "invalid")}`)
    .join("; ");
}

const auth = (ctx: ProviderContext) => ourKeyAs(ctx, "authorization", "Key ");

/** The prompt and the aspect ratio both capabilities take, checked. */
function promptAndRatio(read: InputReader): { prompt: string; aspectRatio: string | undefined } {
  const prompt = read.string("prompt", true);
  const aspectRatio = read.string("aspectRatio");
  if (aspectRatio !== undefined && !IMAGE_SIZES[aspectRatio])
    throw inputRefusal(KEY, `aspectRatio must be one of ${Object.keys(IMAGE_SIZES).join(", ")}`, "aspectRatio");
  return { prompt, aspectRatio };
}

/** Both capabilities answer fal's images. */
function images(res: RailResponse): ProviderResult {
  if (res.status !== 200) throw vendorError(KEY, res, { message: detailMessage(res.body) });
  const images = isRecord(res.body) && Array.isArray(res.body.images) ? res.body.images.filter(isRecord) : [];
  const image = images[0];
  const url = stringField(image, "url");
  if (!image || !url) throw invalidResponse(KEY, res, "without images[0].url");
  const requestId = res.headers["x-fal-request-id"];
  return {
    status: "completed",
    ...(requestId ? { providerMessageId: requestId } : {}),
    data: {
      images: images.map((i) => ({
        url: stringField(i, "url") ?? null,
        width: typeof i.width === "number" ? i.width : null,
        height: typeof i.height === "number" ? i.height : null,
        contentType: stringField(i, "content_type") ?? null,
      })),
      ...(isRecord(res.body) && typeof res.body.seed === "number" ? { seed: res.body.seed } : {}),
    },
  };
}

export const falProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://fal.run" },
  capabilities: {
    "media.image.generate": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const { prompt, aspectRatio } = promptAndRatio(read);
        const model = read.string("model") ?? "flux-schnell";
        const app = GENERATE_MODELS[model];
        if (!app) throw inputRefusal(KEY, `model must be one of ${Object.keys(GENERATE_MODELS).join(", ")} on fal`, "model");
        const seed = read.number("seed", { integer: true, min: 0 });
        const body = {
          prompt,
          image_size: IMAGE_SIZES[aspectRatio ?? "1:1"],
          num_images: 1,
          enable_safety_checker: true,
          ...(seed !== undefined ? { seed } : {}),
        };
        return { method: "POST", url: `${ctx.baseUrl}/${app}`, headers: auth(ctx), body };
      },
      parse: images,
    },
    "media.image.edit": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const { prompt, aspectRatio } = promptAndRatio(read);
        const body = {
          prompt,
          image_url: read.string("imageUrl", true),
          num_images: 1,
          ...(aspectRatio ? { aspect_ratio: aspectRatio } : {}),
        };
        return { method: "POST", url: `${ctx.baseUrl}/${EDIT_APP}`, headers: auth(ctx), body };
      },
      parse: images,
    },
  },
});
