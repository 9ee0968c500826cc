// Perplexity Sonar stand-in (`Authorization: Bearer pplx-…` on its API, and its paid hosts): POST /chat/completions
// {model: sonar | sonar-pro, messages, max_tokens?, search_domain_filter? (≤ 20; `-domain` excludes)} →
// an OpenAI-style chat.completion plus `citations` (URLs) and `search_results` [{title, url, date}];
// errors {error: {message, type, code}}. The answer and sources are derived deterministically from the
// last user message and respect the domain filter.
import { randomUUID } from "node:crypto";
import {
  authToken,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
  slugOf,
} from "../http/vendor";

const MODELS = new Set(["sonar", "sonar-pro", "sonar-reasoning", "sonar-reasoning-pro"]);
const MAX_DOMAINS = 20;

function error(status: number, message: string, type = status >= 500 ? "server_error" : "invalid_request_error"): VendorReply {
  return { status, body: { error: { message, type, code: status } } };
}

export function perplexityVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "perplexity",
    price: { amountAtomic: priceAtomic, description: "Perplexity Sonar answer" },
    authenticate: (req) =>
      authToken(req, "Bearer") === apiKey ? undefined : error(401, "Invalid API key provided.", "authentication_error"),
    errorReply: (status, message) => error(status, message),
    routes: [{ method: "POST", path: "/chat/completions", handle: complete }],
  };
}

function complete(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "Request body must be a JSON object.");
  if (typeof b.model !== "string" || !MODELS.has(b.model)) return error(400, `Invalid model '${String(b.model)}'.`);
  const messages = Array.isArray(b.messages) ? b.messages.filter(isObject) : [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last || typeof last.content !== "string" || last.content.trim() === "") return error(400, "messages must end with a user message.");
  if (b.max_tokens !== undefined && (typeof b.max_tokens !== "number" || !Number.isInteger(b.max_tokens) || b.max_tokens < 1))
    return error(400, "max_tokens must be a positive integer.");
  const filter = b.search_domain_filter ?? [];
  if (!Array.isArray(filter) || filter.some((d) => typeof d !== "string"))
    return error(400, "search_domain_filter must be a list of domains.");
  if (filter.length > MAX_DOMAINS) return error(400, `search_domain_filter accepts at most ${MAX_DOMAINS} domains.`);
  const include = (filter as string[]).filter((d) => !d.startsWith("-"));
  const exclude = new Set((filter as string[]).filter((d) => d.startsWith("-")).map((d) => d.slice(1)));
  const hosts = (
    include.length > 0 ? include : ["en.wikipedia.org", "docs.example.com", "news.example.com", "blog.example.org", "example.edu"]
  ).filter((h) => !exclude.has(h));
  const question = last.content.trim();
  const slug = slugOf(question, "question");
  const search_results = hosts
    .slice(0, 5)
    .map((host, i) => ({ title: `${host}: ${question}`, url: `https://${host}/${slug}`, date: `2026-01-1${i}` }));
  const content = `Here is what the sources say about "${question}" [1].`;
  const completionTokens = Math.min(Math.ceil(content.length / 4), typeof b.max_tokens === "number" ? b.max_tokens : Infinity);
  const promptTokens = Math.ceil(question.length / 4) + 3;
  return {
    status: 200,
    body: {
      id: randomUUID(),
      model: b.model,
      created: 1_767_225_600,
      object: "chat.completion",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
      citations: search_results.map((r) => r.url),
      search_results,
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        search_context_size: "low",
      },
    },
  };
}

export const perplexitySandbox = {
  key: "perplexity",
  apiKey: "pplx-sandbox-key",
  priceAtomic: "7000",
  create: perplexityVendor,
} as const satisfies SandboxVendor;
