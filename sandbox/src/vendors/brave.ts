// Brave Search API stand-in (`X-Subscription-Token` on its API, and its paid hosts): GET /res/v1/web/search,
// /res/v1/news/search and /res/v1/images/search with `q`, `count`, and `freshness` (news) or
// `safesearch` (images). Answers {type: "search", query, web: {results}} for the web, {type: "news" |
// "images", query, results} otherwise; errors {type: "ErrorResponse", error: {id, status, code,
// detail, meta}, time}. Like Brave, a bad token and a bad parameter are both 422s, told apart by `code`.
// Results are derived deterministically from the query.
import { randomUUID } from "node:crypto";
import {
  header,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
  slugOf,
} from "../http/vendor";

/** Brave's largest `count` per endpoint. */
const MAX_COUNT = { web: 20, news: 50, images: 200 } as const;
const FRESHNESS = new Set(["pd", "pw", "pm", "py"]);
const SAFESEARCH = new Set(["off", "strict"]);
/** The rate-limit headers Brave sends on every answer (per-second and per-month windows). */
const RATE_LIMIT_HEADERS = {
  "x-ratelimit-limit": "20, 20000000",
  "x-ratelimit-remaining": "19, 19999999",
  "x-ratelimit-reset": "1, 2419200",
};

function error(status: number, code: string, detail: string, meta: Record<string, unknown> = {}): VendorReply {
  return { status, body: { type: "ErrorResponse", error: { id: randomUUID(), status, code, detail, meta }, time: Date.now() } };
}

function invalidParam(loc: string, msg: string): VendorReply {
  return error(422, "VALIDATION", "Unable to validate request parameter(s).", {
    errors: [{ type: "value_error", loc: ["query", loc], msg }],
  });
}

export function braveVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "brave",
    price: { amountAtomic: priceAtomic, description: "Brave Search query" },
    authenticate: (req) =>
      header(req, "x-subscription-token") === apiKey
        ? undefined
        : error(422, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.", { component: "authentication" }),
    errorReply: (status, message) =>
      error(status, status === 429 ? "RATE_LIMITED" : status >= 500 ? "INTERNAL_ERROR" : "BAD_REQUEST", message),
    routes: [
      { method: "GET", path: "/res/v1/web/search", handle: (req) => search(req, "web") },
      { method: "GET", path: "/res/v1/news/search", handle: (req) => search(req, "news") },
      { method: "GET", path: "/res/v1/images/search", handle: (req) => search(req, "images") },
    ],
  };
}

function search(req: VendorRequest, kind: keyof typeof MAX_COUNT): VendorReply {
  const q = req.query.q?.trim();
  if (!q)
    return error(422, "VALIDATION", "Unable to validate request parameter(s).", {
      errors: [{ type: "missing", loc: ["query", "q"], msg: "Field required" }],
    });
  if (q.length > 400) return invalidParam("q", "String should have at most 400 characters");
  const count = req.query.count === undefined ? (kind === "images" ? 50 : 20) : Number(req.query.count);
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT[kind])
    return invalidParam("count", `Input should be between 1 and ${MAX_COUNT[kind]}`);
  if (kind === "news" && req.query.freshness !== undefined && !FRESHNESS.has(req.query.freshness))
    return invalidParam("freshness", "Input should be 'pd', 'pw', 'pm' or 'py'");
  if (kind === "images" && req.query.safesearch !== undefined && !SAFESEARCH.has(req.query.safesearch))
    return invalidParam("safesearch", "Input should be 'off' or 'strict'");
  const slug = slugOf(q);
  const query = { original: q, more_results_available: true };
  const hits = Array.from({ length: Math.min(count, 5) }, (_, i) => i + 1);
  const headers = RATE_LIMIT_HEADERS;
  if (kind === "web") {
    const results = hits.map((n) => ({
      type: "search_result",
      title: `${q} - result ${n}`,
      url: `https://example.com/${slug}/${n}`,
      description: `What page ${n} says about <strong>${q}</strong>.`,
      page_age: `2026-01-1${n}T00:00:00`,
      meta_url: { scheme: "https", hostname: "example.com", path: `› ${slug} › ${n}` },
    }));
    return { status: 200, headers, body: { type: "search", query, mixed: { type: "mixed", main: [] }, web: { type: "search", results } } };
  }
  if (kind === "news") {
    const results = hits.map((n) => ({
      type: "news_result",
      title: `${q}: report ${n}`,
      url: `https://news.example.com/${slug}/${n}`,
      description: `Report ${n} on ${q}.`,
      age: `${n} hours ago`,
      page_age: `2026-01-20T0${n}:00:00`,
      meta_url: { scheme: "https", hostname: "news.example.com", path: `› ${slug}` },
      thumbnail: { src: `https://imgs.search.brave.com/${slug}-${n}.jpg` },
    }));
    return { status: 200, headers, body: { type: "news", query, results } };
  }
  const results = hits.map((n) => ({
    type: "image_result",
    title: `${q} picture ${n}`,
    url: `https://photos.example.com/${slug}/${n}`,
    source: "photos.example.com",
    thumbnail: { src: `https://imgs.search.brave.com/${slug}-${n}-thumb.jpg` },
    properties: { url: `https://photos.example.com/${slug}/${n}.jpg`, placeholder: `https://imgs.search.brave.com/${slug}-${n}-ph.jpg` },
    meta_url: { scheme: "https", hostname: "photos.example.com", path: `› ${slug}` },
  }));
  return { status: 200, headers, body: { type: "images", query, results } };
}

export const braveSandbox = {
  key: "brave",
  apiKey: "brave-sandbox-key",
  priceAtomic: "5000",
  create: braveVendor,
} as const satisfies SandboxVendor;
