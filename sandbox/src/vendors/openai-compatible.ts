// OpenAI-compatible chat completions stand-in (OpenAI, DeepSeek...; bearer key when direct, paid on
// the x402/MPP mounts): POST /chat/completions (and /v1/chat/completions) → a `chat.completion` object; errors
// {error: {message, type, param, code}}. The reply deterministically echoes the last user message.
import { randomBytes } from "node:crypto";
import { authToken, header, isObject, type VendorContext, type VendorDefinition, type VendorOptions, type VendorReply, type VendorRequest } from "../http/vendor";

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
      if (!header(req, "authorization")) return error(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "invalid_request_error", null);
      if (authToken(req, "Bearer") !== opts.apiKey) return error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
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
  if (!models.has(b.model)) return error(404, `The model \`${b.model}\` does not exist or you do not have access to it.`, "invalid_request_error", "model_not_found");
  if (!Array.isArray(b.messages) || b.messages.length === 0) return error(400, "'messages' is a required property and must be a non-empty array", "invalid_request_error", null, "messages");
  for (const [i, m] of b.messages.entries()) {
    if (!isObject(m) || typeof m.role !== "string" || !ROLES.has(m.role)) return error(400, `Invalid value for 'messages[${i}].role'.`, "invalid_request_error", "invalid_value", `messages[${i}].role`);
    if (typeof m.content !== "string") return error(400, `Invalid type for 'messages[${i}].content': expected a string.`, "invalid_request_error", "invalid_type", `messages[${i}].content`);
  }
  if (b.stream === true) return error(400, "Streaming is not available on this endpoint.", "invalid_request_error", "unsupported_value", "stream");
  if (b.max_tokens !== undefined && (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1)) return error(400, "Invalid 'max_tokens': must be a positive integer.", "invalid_request_error", "invalid_value", "max_tokens");
  if (b.temperature !== undefined && (typeof b.temperature !== "number" || b.temperature < 0 || b.temperature > 2)) return error(400, "Invalid 'temperature': must be between 0 and 2.", "invalid_request_error", "invalid_value", "temperature");

  const messages = b.messages as Array<{ role: string; content: string }>;
  const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const words = `Sandbox reply to: ${lastUser}`.split(/\s+/).filter(Boolean);
  const limit = (b.max_tokens as number | undefined) ?? Infinity;
  const content = words.slice(0, limit).join(" ");
  // Whitespace-separated words stand in for tokens: stable and good enough for usage accounting tests.
  const promptTokens = messages.reduce((n, m) => n + m.content.split(/\s+/).filter(Boolean).length, 0);
  const completionTokens = Math.min(words.length, limit);
  return {
    status: 200,
    body: {
      id: `chatcmpl-${randomBytes(12).toString("base64url")}`,
      object: "chat.completion",
      created: Math.floor(ctx.now().getTime() / 1000),
      model: b.model,
      choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: words.length > limit ? "length" : "stop" }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      system_fingerprint: "fp_sandbox",
    },
  };
}
