// Tavily stand-in (`Authorization: Bearer tvly-…` on its API, and its paid hosts): POST /search {query,
// max_results? (0-20), search_depth? (basic|advanced), topic?, include_domains?, exclude_domains?} →
// {query, answer, images, results: [{title, url, content, score, raw_content}], response_time,
// request_id}; errors {detail: {error}}, with Tavily's 432 (plan limit) and 433 (pay-as-you-go limit).
// Results are derived deterministically from the query.
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

const DEPTHS = new Set(["basic", "advanced"]);
const TOPICS = new Set(["general", "news", "finance"]);

function error(status: number, message: string): VendorReply {
  return { status, body: { detail: { error: message } } };
}

export function tavilyVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "tavily",
    price: { amountAtomic: priceAtomic, description: "Tavily search" },
    authenticate: (req) => (authToken(req, "Bearer") === apiKey ? undefined : error(401, "Unauthorized: missing or invalid API key.")),
    errorReply: error,
    routes: [{ method: "POST", path: "/search", handle: search }],
  };
}

const isStringList = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((d) => typeof d === "string"));

function search(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b) || typeof b.query !== "string" || b.query.trim() === "") return error(400, "Query is missing.");
  const max = b.max_results ?? 5;
  if (typeof max !== "number" || !Number.isInteger(max) || max < 0 || max > 20) return error(400, "max_results must be between 0 and 20.");
  if (b.search_depth !== undefined && !DEPTHS.has(b.search_depth as string)) return error(400, "Invalid search_depth.");
  if (b.topic !== undefined && !TOPICS.has(b.topic as string)) return error(400, "Invalid topic.");
  if (!isStringList(b.include_domains) || !isStringList(b.exclude_domains)) return error(400, "Domains must be a list of strings.");
  const query = b.query.trim();
  const slug = slugOf(query);
  const include = (b.include_domains as string[] | undefined) ?? [];
  const exclude = new Set((b.exclude_domains as string[] | undefined) ?? []);
  const hosts = (
    include.length > 0 ? include : ["docs.example.com", "blog.example.org", "wiki.example.net", "news.example.com", "example.edu"]
  ).filter((h) => !exclude.has(h));
  const results = Array.from({ length: Math.min(max, hosts.length) }, (_, i) => ({
    title: `${query} | ${hosts[i]}`,
    url: `https://${hosts[i]}/${slug}`,
    content: `${hosts[i]} on ${query}: a cleaned extract of the page, ready for an LLM.`,
    score: Math.round((0.95 - i * 0.07) * 100) / 100,
    raw_content: null,
  }));
  return {
    status: 200,
    body: { query, follow_up_questions: null, answer: null, images: [], results, response_time: 0.42, request_id: randomUUID() },
  };
}

export const tavilySandbox = {
  key: "tavily",
  apiKey: "tvly-sandbox-key",
  priceAtomic: "8000",
  create: tavilyVendor,
} as const satisfies SandboxVendor;
