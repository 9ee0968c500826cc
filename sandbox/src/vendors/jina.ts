// Jina Reader stand-in (r.jina.ai, bearer key): POST / {url} with `Accept: application/json` → {code: 200,
// status: 20000, data: {title, description, url, content, publishedTime, usage: {tokens}}, meta: {usage}};
// errors {data: null, code, name, status, message, readableMessage}, 429s with Retry-After. Page content
// is markdown derived deterministically from the URL (sized by page-world.ts); a PDF URL reads as a
// document. Jina's Reader headers that bound a call are enforced: `X-Timeout` (whole seconds, 1..180,
// how long it may spend loading) and `X-Token-Budget` (the most tokens the answer may bill; a page above
// it is refused with 422 and bills nothing). Tokens count one per 4 bytes.
import {
  authToken,
  header,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";
import { sizedText } from "./page-world";

/** Jina's largest X-Timeout, in seconds. */
const MAX_TIMEOUT_S = 180;

/** Jina's error names and five-digit statuses per HTTP status. */
const ERROR_NAMES: Readonly<Record<number, [string, number]>> = {
  400: ["ParamValidationError", 40001],
  401: ["AuthenticationFailedError", 40103],
  402: ["InsufficientBalanceError", 40201],
  422: ["AssertionFailureError", 42206],
  429: ["RateLimitTriggeredError", 42903],
};

function error(status: number, message: string): VendorReply {
  const [name, code] = ERROR_NAMES[status] ?? ["InternalServerError", status * 100];
  return {
    status,
    ...(status === 429 ? { headers: { "retry-after": "30" } } : {}),
    body: { data: null, code: status, name, status: code, message, readableMessage: `${name}: ${message}` },
  };
}

export function jinaVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "jina",
    price: { amountAtomic: priceAtomic, description: "Jina Reader page" },
    authenticate: (req) =>
      authToken(req, "Bearer") === apiKey ? undefined : error(401, "Authentication failed: invalid API key, please check your API key"),
    errorReply: error,
    routes: [{ method: "POST", path: "/", handle: read }],
  };
}

function read(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b) || typeof b.url !== "string" || b.url.trim() === "") return error(400, "url is required");
  let url: URL;
  try {
    url = new URL(b.url);
  } catch {
    return error(422, `Invalid URL or title: ${b.url}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return error(422, `Invalid protocol ${url.protocol}`);
  const timeout = header(req, "x-timeout");
  if (timeout !== undefined && !(/^\d+$/.test(timeout) && Number(timeout) >= 1 && Number(timeout) <= MAX_TIMEOUT_S))
    return error(400, `X-Timeout must be a whole number of seconds from 1 to ${MAX_TIMEOUT_S}`);
  const budgetHeader = header(req, "x-token-budget");
  if (budgetHeader !== undefined && !(/^\d+$/.test(budgetHeader) && Number(budgetHeader) >= 1))
    return error(400, "X-Token-Budget must be a positive whole number of tokens");
  const pdf = url.pathname.toLowerCase().endsWith(".pdf");
  const title = `${url.hostname.replace(/^www\./, "")} ${url.pathname === "/" ? "home" : url.pathname.split("/").filter(Boolean).join(" ")}`;
  const content = sizedText(url, `# ${title}\n\n${pdf ? "Text of the PDF document" : "Main content"} at ${url.href}.`);
  const tokens = Math.ceil(Buffer.byteLength(content, "utf8") / 4);
  if (budgetHeader !== undefined && tokens > Number(budgetHeader))
    return error(422, `Token budget (${budgetHeader}) exceeded, intended charge amount ${tokens}`);
  const data = {
    title,
    description: `Page at ${url.href}`,
    url: url.href,
    content,
    publishedTime: "2026-01-15T00:00:00.000Z",
    usage: { tokens },
  };
  // Without `Accept: application/json` Jina answers the markdown as text.
  if (!header(req, "accept")?.includes("application/json"))
    return { status: 200, body: `Title: ${title}\n\nURL Source: ${url.href}\n\nMarkdown Content:\n${content}` };
  return { status: 200, body: { code: 200, status: 20000, data, meta: { usage: { tokens } } } };
}

export const jinaSandbox = {
  key: "jina",
  apiKey: "jina-sandbox-key",
  priceAtomic: "1000",
  create: jinaVendor,
} as const satisfies SandboxVendor;
