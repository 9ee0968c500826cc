// Exa stand-in (API with `x-api-key`, and its MPP host): POST /answer {query, text?} → {requestId, answer, citations[],
// costDollars}; POST /search {query, numResults?, contents?: {text?, highlights?}} → {requestId,
// resolvedSearchType, results[], costDollars}; errors {requestId, error, tag}. Answers are
// deterministic text about the query.
import { randomUUID } from "node:crypto";
import {
  header,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
  slugOf,
} from "../http/vendor";

function error(status: number, tag: string, message: string): VendorReply {
  return { status, body: { requestId: randomUUID().replace(/-/g, ""), error: message, tag } };
}

export function exaVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "exa",
    price: { amountAtomic: priceAtomic, description: "Exa answer" },
    authenticate: (req) => (header(req, "x-api-key") === apiKey ? undefined : error(401, "INVALID_API_KEY", "Invalid API key")),
    errorReply: (status, message) => error(status, status >= 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST", message),
    routes: [
      { method: "POST", path: "/answer", handle: (req) => answer(req, Number(priceAtomic) / 1e6) },
      { method: "POST", path: "/search", handle: (req) => search(req, Number(priceAtomic) / 1e6) },
    ],
  };
}

function search(req: VendorRequest, costDollars: number): VendorReply {
  const b = req.body;
  if (!isObject(b) || typeof b.query !== "string" || b.query.trim().length === 0)
    return error(400, "INVALID_REQUEST_BODY", "query is required and must be a non-empty string");
  const numResults = b.numResults ?? 10;
  if (typeof numResults !== "number" || !Number.isInteger(numResults) || numResults < 1 || numResults > 100)
    return error(400, "INVALID_REQUEST_BODY", "numResults must be an integer between 1 and 100");
  if (b.contents !== undefined && !isObject(b.contents)) return error(400, "INVALID_REQUEST_BODY", "contents must be an object");
  const query = b.query.trim();
  const slug = slugOf(query);
  const contents = isObject(b.contents) ? b.contents : {};
  const results = Array.from({ length: Math.min(numResults, 5) }, (_, i) => i + 1).map((n) => ({
    id: `https://example.com/${slug}/${n}`,
    url: `https://example.com/${slug}/${n}`,
    title: `Source ${n} on ${query}`,
    publishedDate: `2026-01-1${n}T00:00:00.000Z`,
    author: null,
    ...(contents.text ? { text: `Full text of source ${n} about ${query}.` } : {}),
    ...(contents.highlights ? { highlights: [`Source ${n} explains ${query}.`], highlightScores: [0.9 - n / 10] } : {}),
  }));
  return {
    status: 200,
    body: { requestId: randomUUID().replace(/-/g, ""), resolvedSearchType: "neural", results, costDollars: { total: costDollars } },
  };
}

function answer(req: VendorRequest, costDollars: number): VendorReply {
  const b = req.body;
  if (!isObject(b) || typeof b.query !== "string" || b.query.trim().length === 0)
    return error(400, "INVALID_REQUEST_BODY", "query is required and must be a non-empty string");
  if (b.stream === true) return error(400, "INVALID_REQUEST", "stream is not supported on this endpoint version");
  const query = b.query.trim();
  const slug = slugOf(query);
  const citations = [1, 2, 3].map((n) => ({
    id: `https://example.com/${slug}/${n}`,
    url: `https://example.com/${slug}/${n}`,
    title: `Source ${n} on ${query}`,
    author: null,
    publishedDate: "2026-01-1" + n + "T00:00:00.000Z",
    ...(b.text === true ? { text: `Full text of source ${n} about ${query}.` } : {}),
  }));
  return {
    status: 200,
    body: {
      requestId: randomUUID().replace(/-/g, ""),
      answer: `Based on 3 sources, here is what is known about "${query}".`,
      citations,
      costDollars: { total: costDollars },
    },
  };
}

export const exaSandbox = {
  key: "exa",
  apiKey: "exa-sandbox-key",
  priceAtomic: "5000",
  create: exaVendor,
} as const satisfies SandboxVendor;
