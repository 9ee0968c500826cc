// Anthropic Messages API stand-in (`x-api-key` direct, paid on the x402/MPP mounts; `anthropic-version`
// required): POST /v1/messages {model, max_tokens, messages, system?, temperature?, stop_sequences?} → a
// `message` {id, content: [{type: "text", text}], stop_reason, usage}; errors {type: "error", error: {type,
// message}}. The reply echoes the last user message; tokens are one per 4 UTF-8 bytes, and the reply
// stops at max_tokens (stop_reason "max_tokens").
import { randomBytes } from "node:crypto";
import {
  header,
  isObject,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

const MODELS = new Set(["claude-3-5-haiku-20241022", "claude-sonnet-4-20250514"]);
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

function error(status: number, message: string): VendorReply {
  return {
    status,
    body: { type: "error", error: { type: ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"), message } },
  };
}

const tokens = (text: string) => Math.ceil(Buffer.byteLength(text, "utf8") / 4);

export function anthropicVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "anthropic",
    price: { amountAtomic: priceAtomic, description: "Anthropic message" },
    authenticate: (req) => (header(req, "x-api-key") === apiKey ? undefined : error(401, "invalid x-api-key")),
    errorReply: error,
    routes: [{ method: "POST", path: "/v1/messages", handle: message }],
  };
}

function message(req: VendorRequest): VendorReply {
  if (!header(req, "anthropic-version")) return error(400, "anthropic-version: header is required");
  const b = req.body;
  if (!isObject(b)) return error(400, "Request body must be a JSON object");
  if (typeof b.model !== "string") return error(400, "model: Field required");
  if (!MODELS.has(b.model)) return error(404, `model: ${b.model}`);
  if (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1) return error(400, "max_tokens: Field required (a positive integer)");
  if (!Array.isArray(b.messages) || b.messages.length === 0) return error(400, "messages: at least one message is required");
  for (const [i, m] of b.messages.entries()) {
    if (!isObject(m) || (m.role !== "user" && m.role !== "assistant"))
      return error(400, `messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (typeof m.content !== "string" && !Array.isArray(m.content))
      return error(400, `messages.${i}.content: Input should be a valid list or string`);
  }
  if (b.system !== undefined && typeof b.system !== "string" && !Array.isArray(b.system))
    return error(400, "system: Input should be a valid string");
  if (b.temperature !== undefined && (typeof b.temperature !== "number" || b.temperature < 0 || b.temperature > 1))
    return error(400, "temperature: Input should be less than or equal to 1");
  const messages = b.messages as Array<{ role: string; content: unknown }>;
  const text = (c: unknown) => (typeof c === "string" ? c : JSON.stringify(c));
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const reply = `Sandbox reply to: ${lastUser ? text(lastUser.content) : ""}`;
  const limit = b.max_tokens as number;
  const content = tokens(reply) <= limit ? reply : reply.slice(0, limit * 4);
  const inputTokens = messages.reduce((n, m) => n + 4 + tokens(text(m.content)), typeof b.system === "string" ? tokens(b.system) : 0);
  return {
    status: 200,
    body: {
      id: `msg_${randomBytes(12).toString("hex")}`,
      type: "message",
      role: "assistant",
      model: b.model,
      content: [{ type: "text", text: content }],
      stop_reason: content.length < reply.length ? "max_tokens" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: tokens(content) },
    },
  };
}

export const anthropicSandbox = {
  key: "anthropic",
  apiKey: "sk-ant-sandbox-key",
  priceAtomic: "5000",
  create: anthropicVendor,
} as const satisfies SandboxVendor;
