// fal.ai stand-in (its synchronous model API with `Authorization: Key <key>`, and its MPP host):
// POST /fal-ai/flux/schnell {prompt, image_size?, num_images?, seed?, enable_safety_checker?} and
// POST /fal-ai/flux-pro/kontext {prompt, image_url, aspect_ratio?, num_images?} → {images: [{url,
// width, height, content_type}], seed, has_nsfw_concepts, timings, prompt} with an x-fal-request-id
// header; a refused input is 422 {detail: [{loc, msg, type}]}, other errors {detail: "<message>"}.
// Image URLs are deterministic per prompt; nothing is rendered.
import { createHash, randomUUID } from "node:crypto";
import {
  authToken,
  isObject,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

/** fal's image_size presets and their pixel sizes. */
const IMAGE_SIZES: Readonly<Record<string, [number, number]>> = {
  square_hd: [1024, 1024],
  square: [512, 512],
  portrait_4_3: [768, 1024],
  portrait_16_9: [576, 1024],
  landscape_4_3: [1024, 768],
  landscape_16_9: [1024, 576],
};
const ASPECT_RATIOS = new Set(["21:9", "16:9", "4:3", "3:2", "1:1", "2:3", "3:4", "9:16", "9:21"]);

function invalid(field: string, msg: string, type = "value_error"): VendorReply {
  return { status: 422, body: { detail: [{ loc: ["body", field], msg, type }] } };
}

function imagesReply(prompt: string, width: number, height: number, count: number, seed: number): VendorReply {
  const digest = createHash("sha256").update(`${prompt}|${width}x${height}|${seed}`).digest("hex").slice(0, 20);
  const images = Array.from({ length: count }, (_, i) => ({
    url: `https://v3.fal.media/files/sandbox/${digest}-${i}.jpeg`,
    width,
    height,
    content_type: "image/jpeg",
  }));
  return {
    status: 200,
    headers: { "x-fal-request-id": randomUUID() },
    body: { images, timings: { inference: 0.31 }, seed, has_nsfw_concepts: images.map(() => false), prompt },
  };
}

/** Common checks of both apps: a prompt, and 1..4 images. */
function promptAndCount(b: Record<string, unknown>): { prompt: string; count: number } | VendorReply {
  if (typeof b.prompt !== "string" || b.prompt.trim() === "") return invalid("prompt", "field required", "value_error.missing");
  const count = b.num_images ?? 1;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > 4)
    return invalid("num_images", "ensure this value is between 1 and 4");
  return { prompt: b.prompt, count };
}

function generate(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return invalid("body", "value is not a valid dict", "type_error.dict");
  const common = promptAndCount(b);
  if ("status" in common) return common;
  const preset = b.image_size ?? "landscape_4_3";
  const size = typeof preset === "string" ? IMAGE_SIZES[preset] : undefined;
  if (!size) return invalid("image_size", `value is not a valid enumeration member; permitted: ${Object.keys(IMAGE_SIZES).join(", ")}`);
  const seed = b.seed ?? 42;
  if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0) return invalid("seed", "value is not a valid integer");
  return imagesReply(common.prompt, size[0], size[1], common.count, seed);
}

function edit(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return invalid("body", "value is not a valid dict", "type_error.dict");
  const common = promptAndCount(b);
  if ("status" in common) return common;
  if (typeof b.image_url !== "string" || !/^(https?:|data:)/.test(b.image_url))
    return invalid("image_url", "field required", "value_error.missing");
  if (b.aspect_ratio !== undefined && (typeof b.aspect_ratio !== "string" || !ASPECT_RATIOS.has(b.aspect_ratio)))
    return invalid("aspect_ratio", `value is not a valid enumeration member; permitted: ${[...ASPECT_RATIOS].join(", ")}`);
  return imagesReply(`${common.prompt}|${b.image_url}`, 1024, 1024, common.count, 7);
}

export function falVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "fal",
    price: { amountAtomic: priceAtomic, description: "fal.ai image generation" },
    authenticate: (req) => (authToken(req, "Key") === apiKey ? undefined : { status: 401, body: { detail: "Invalid API key" } }),
    errorReply: (status, message) => ({ status, body: { detail: message } }),
    routes: [
      { method: "POST", path: "/fal-ai/flux/schnell", handle: generate },
      // FLUX Kontext [pro] costs $0.04 an image: more than the schnell price of the mount.
      { method: "POST", path: "/fal-ai/flux-pro/kontext", priceAtomic: "40000", handle: edit },
    ],
  };
}

export const falSandbox = {
  key: "fal",
  apiKey: "fal-sandbox-key",
  priceAtomic: "3000",
  create: falVendor,
} as const satisfies SandboxVendor;
