// OpenAI-compatible chat completions stand-in (OpenAI, DeepSeek...; bearer key when direct, paid on
// the x402/MPP mounts): POST /chat/completions (and /v1/chat/completions) → a `chat.completion` object; errors
// {error: {message, type, param, code}}. The reply deterministically echoes the last user message.
// `usage` is counted the way the vendors bill: the chat format's tokens (3 per message, 1 more for a
// name, 3 priming the reply) plus the text's tokens, here one per 4 UTF-8 bytes (a byte-level BPE
// averages about that on English); the reply stops at max_tokens such tokens (finish_reason "length").
import { randomBytes } from "node:crypto";
import {
  authToken,
  header,
  isObject,
  type VendorContext,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

function error(status: number, message: string, type: string, code: string | null, param: string | null = null): VendorReply {
  return { status, body: { error: { message, type, param, code } } };
}

export interface OpenAiCompatibleOptions extends VendorOptions {
  key: string;
  models: string[];
}

export function openAiCompatibleVendor(opts: OpenAiCompatibleOptions): VendorDefinition {
  const models = new Set(opts.models);
  const handle = (req: VendorRequest, ctx: VendorContext) => complete(req, ctx, models);
  return {
    key: opts.key,
    price: { amountAtomic: opts.priceAtomic, description: `${opts.key} chat completion` },
    errorReply: (status, message) => error(status, message, status >= 500 ? "server_error" : "invalid_request_error", null),
    authenticate(req: VendorRequest) {
      if (!header(req, "authorization"))
        return error(
          401,
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          "invalid_request_error",
          null,
        );
      if (authToken(req, "Bearer") !== opts.apiKey)
        return error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
      return undefined;
    },
    routes: [
      { method: "POST", path: "/chat/completions", handle },
      { method: "POST", path: "/v1/chat/completions", handle },
    ],
  };
}

function complete(req: VendorRequest, ctx: VendorContext, models: Set<string>): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "We could not parse the JSON body of your request.", "invalid_request_error", null);
  if (typeof b.model !== "string") return error(400, "you must provide a model parameter", "invalid_request_error", null, "model");
  if (!models.has(b.model))
    return error(
      404,
      `The model \`${b.model}\` does not exist or you do not have access to it.`,
      "invalid_request_error",
      "model_not_found",
    );
  if (!Array.isArray(b.messages) || b.messages.length === 0)
    return error(400, "'messages' is a required property and must be a non-empty array", "invalid_request_error", null, "messages");
  for (const [i, m] of b.messages.entries()) {
    if (!isObject(m) || typeof m.role !== "string" || !ROLES.has(m.role))
      return error(400, `Invalid value for 'messages[${i}].role'.`, "invalid_request_error", "invalid_value", `messages[${i}].role`);
    if (typeof m.content !== "string")
      return error(
        400,
        `Invalid type for 'messages[${i}].content': expected a string.`,
        "invalid_request_error",
        "invalid_type",
        `messages[${i}].content`,
      );
  }
  if (b.stream === true)
    return error(400, "Streaming is not available on this endpoint.", "invalid_request_error", "unsupported_value", "stream");
  if (b.max_tokens !== undefined && (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1))
    return error(400, "Invalid 'max_tokens': must be a positive integer.", "invalid_request_error", "invalid_value", "max_tokens");
  if (b.temperature !== undefined && (typeof b.temperature !== "number" || b.temperature < 0 || b.temperature > 2))
    return error(400, "Invalid 'temperature': must be between 0 and 2.", "invalid_request_error", "invalid_value", "temperature");

  const messages = b.messages as Array<{ role: string; content: string; name?: unknown }>;
  const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const reply = `Sandbox reply to: ${lastUser}`;
  const limit = (b.max_tokens as number | undefined) ?? Infinity;
  const content = firstTokens(reply, limit);
  const promptTokens =
    REPLY_PRIMING_TOKENS +
    messages.reduce(
      (n, m) => n + TOKENS_PER_MESSAGE + tokens(m.role) + tokens(m.content) + (typeof m.name === "string" ? 1 + tokens(m.name) : 0),
      0,
    );
  const completionTokens = tokens(content);
  return {
    status: 200,
    body: {
      id: `chatcmpl-${randomBytes(12).toString("base64url")}`,
      object: "chat.completion",
      created: Math.floor(ctx.now().getTime() / 1000),
      model: b.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content, refusal: null },
          logprobs: null,
          finish_reason: content.length < reply.length ? "length" : "stop",
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      system_fingerprint: "fp_sandbox",
    },
  };
}

const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMING_TOKENS = 3;
const BYTES_PER_TOKEN = 4;

/** Tokens of a text: one per 4 UTF-8 bytes, rounded up. */
function tokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / BYTES_PER_TOKEN);
}

/** The longest start of `text` that is at most `limit` tokens (whole characters only). */
function firstTokens(text: string, limit: number): string {
  if (tokens(text) <= limit) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    bytes += Buffer.byteLength(ch, "utf8");
    if (bytes > limit * BYTES_PER_TOKEN) break;
    end += ch.length;
  }
  return text.slice(0, end);
}
