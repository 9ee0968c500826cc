// OpenAI embeddings stand-in route: POST /embeddings (and /v1/embeddings) {input: string | string[], model,
// dimensions?, encoding_format?} → {object: "list", data: [{object: "embedding", index, embedding[]}],
// model, usage}; errors {error: {message, type, param, code}}. Each vector is derived from a hash of its
// text (the same text always gets the same unit vector); tokens are counted one per 4 UTF-8 bytes.
import { createHash } from "node:crypto";
import { isObject, type VendorReply, type VendorRequest, type VendorRoute } from "../http/vendor";

/** Embedding models and their native dimensions. */
const MODELS: Readonly<Record<string, number>> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};
const MAX_INPUTS = 2048;

function error(status: number, message: string, param: string | null, code: string | null = null): VendorReply {
  return { status, body: { error: { message, type: "invalid_request_error", param, code } } };
}

/** A deterministic unit vector of `dimensions` numbers for `text`. */
function vectorOf(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash("sha256").update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) values.push(digest.readInt16BE(i) / 32768);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}

function embed(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "We could not parse the JSON body of your request.", null);
  if (typeof b.model !== "string") return error(400, "you must provide a model parameter", "model");
  const native = MODELS[b.model];
  if (native === undefined)
    return error(404, `The model \`${b.model}\` does not exist or you do not have access to it.`, null, "model_not_found");
  const texts = typeof b.input === "string" ? [b.input] : b.input;
  if (
    !Array.isArray(texts) ||
    texts.length === 0 ||
    texts.length > MAX_INPUTS ||
    texts.some((t) => typeof t !== "string" || t.length === 0)
  )
    return error(400, `'input' must be a non-empty string or an array of 1 to ${MAX_INPUTS} non-empty strings.`, "input", "invalid_value");
  let dimensions = native;
  if (b.dimensions !== undefined) {
    if (b.model === "text-embedding-ada-002")
      return error(400, "This model does not support specifying dimensions.", "dimensions", "invalid_value");
    if (!Number.isInteger(b.dimensions) || (b.dimensions as number) < 1 || (b.dimensions as number) > native)
      return error(400, `Invalid 'dimensions': must be between 1 and ${native}.`, "dimensions", "invalid_value");
    dimensions = b.dimensions as number;
  }
  if (b.encoding_format !== undefined && b.encoding_format !== "float" && b.encoding_format !== "base64")
    return error(400, "Invalid 'encoding_format': must be 'float' or 'base64'.", "encoding_format", "invalid_value");
  if (b.encoding_format === "base64")
    return error(400, "The sandbox answers encoding_format float only.", "encoding_format", "unsupported_value");
  const tokens = (texts as string[]).reduce((n, t) => n + Math.ceil(Buffer.byteLength(t, "utf8") / 4), 0);
  return {
    status: 200,
    body: {
      object: "list",
      data: (texts as string[]).map((t, index) => ({ object: "embedding", index, embedding: vectorOf(t, dimensions) })),
      model: b.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}

export const embeddingRoutes: VendorRoute[] = [
  { method: "POST", path: "/embeddings", handle: embed },
  { method: "POST", path: "/v1/embeddings", handle: embed },
];
