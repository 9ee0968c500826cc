// OpenAI image generation stand-in routes: POST /images/generations (and /v1/images/generations)
// {model: gpt-image-1 | dall-e-3, prompt, n?, size?, quality?, output_format?, output_compression?} →
// {created, data: [{b64_json}], usage}; errors {error: {message, type, param, code}}. The "image" is a
// tiny JPEG-marked byte string carrying the prompt, base64 like the real answer.
import { isObject, type VendorReply, type VendorRequest, type VendorRoute } from "../http/vendor";

const SIZES = new Set(["1024x1024", "1536x1024", "1024x1536", "auto"]);
const QUALITIES = new Set(["low", "medium", "high", "auto"]);
const FORMATS = new Set(["png", "jpeg", "webp"]);

function error(status: number, message: string, param: string | null, code: string | null = null): VendorReply {
  return { status, body: { error: { message, type: "invalid_request_error", param, code } } };
}

function generate(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "We could not parse the JSON body of your request.", null);
  if (b.model !== "gpt-image-1") return error(400, `Invalid model '${String(b.model)}'. This stand-in serves gpt-image-1.`, "model");
  if (typeof b.prompt !== "string" || b.prompt.length === 0) return error(400, "Missing required parameter: 'prompt'.", "prompt");
  if (b.prompt.length > 32_000) return error(400, "Prompt is too long: at most 32000 characters.", "prompt", "string_above_max_length");
  if (b.n !== undefined && b.n !== 1) return error(400, "This stand-in makes one image per request ('n' must be 1).", "n");
  if (b.size !== undefined && (typeof b.size !== "string" || !SIZES.has(b.size)))
    return error(400, `Invalid value: '${String(b.size)}'.`, "size");
  if (b.quality !== undefined && (typeof b.quality !== "string" || !QUALITIES.has(b.quality)))
    return error(400, `Invalid value: '${String(b.quality)}'.`, "quality");
  const format = b.output_format ?? "png";
  if (typeof format !== "string" || !FORMATS.has(format)) return error(400, `Invalid value: '${String(format)}'.`, "output_format");
  const marker = format === "jpeg" ? [0xff, 0xd8, 0xff, 0xe0] : format === "png" ? [0x89, 0x50, 0x4e, 0x47] : [0x52, 0x49, 0x46, 0x46];
  const image = Buffer.concat([Buffer.from(marker), Buffer.from(b.prompt, "utf8")]);
  const inputTokens = Math.ceil(Buffer.byteLength(b.prompt, "utf8") / 4);
  return {
    status: 200,
    body: {
      created: Math.floor(Date.now() / 1000),
      data: [{ b64_json: image.toString("base64") }],
      usage: {
        input_tokens: inputTokens,
        output_tokens: 272,
        total_tokens: inputTokens + 272,
        input_tokens_details: { text_tokens: inputTokens, image_tokens: 0 },
      },
    },
  };
}

export const imageRoutes: VendorRoute[] = [
  { method: "POST", path: "/images/generations", handle: generate },
  { method: "POST", path: "/v1/images/generations", handle: generate },
];
