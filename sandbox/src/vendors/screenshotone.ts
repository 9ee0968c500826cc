// ScreenshotOne stand-in (`X-Access-Key` or `access_key` on its API, and its paid hosts): GET /take?url=&format=
// &full_page=&block_ads=&block_cookie_banners=&response_type=json[&timeout=<5..90 s>] → {screenshot_url}; without
// response_type=json it would send the image bytes, which this stand-in refuses to fake. Errors
// {is_successful: false, error_code, error_message, documentation_url}. The screenshot URL is derived
// deterministically from the options.
import { createHash } from "node:crypto";
import {
  header,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

const FORMATS = new Set(["png", "jpeg", "jpg", "webp"]);
const BOOLEANS = new Set(["true", "false"]);

function error(status: number, code: string, message: string): VendorReply {
  return {
    status,
    body: {
      is_successful: false,
      error_code: code,
      error_message: message,
      documentation_url: `https://screenshotone.com/docs/errors/${code}/`,
    },
  };
}

export function screenshotoneVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "screenshotone",
    price: { amountAtomic: priceAtomic, description: "ScreenshotOne screenshot" },
    authenticate: (req) => {
      const key = header(req, "x-access-key") ?? req.query.access_key;
      if (!key) return error(400, "access_key_required", "Access key is required.");
      return key === apiKey ? undefined : error(401, "access_key_invalid", "Access key is invalid.");
    },
    errorReply: (status, message) =>
      error(
        status,
        status === 429 ? "concurrency_limit_reached" : status >= 500 ? "internal_application_error" : "request_not_valid",
        message,
      ),
    routes: [{ method: "GET", path: "/take", handle: take }],
  };
}

function take(req: VendorRequest): VendorReply {
  const q = req.query;
  if (!q.url) return error(400, "request_not_valid", 'The "url" parameter is required.');
  let url: URL;
  try {
    url = new URL(q.url);
  } catch {
    return error(400, "request_not_valid", 'The "url" parameter must be a valid URL.');
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return error(400, "request_not_valid", 'The "url" must use http or https.');
  const format = q.format ?? "jpg";
  if (!FORMATS.has(format)) return error(400, "request_not_valid", `The "format" parameter does not support "${format}".`);
  for (const option of ["full_page", "block_ads", "block_cookie_banners"]) {
    const value = q[option];
    if (value !== undefined && !BOOLEANS.has(value))
      return error(400, "request_not_valid", `The "${option}" parameter must be true or false.`);
  }
  if (q.response_type !== "json") return error(400, "request_not_valid", "This stand-in answers only response_type=json.");
  if (q.timeout !== undefined && !(/^\d+$/.test(q.timeout) && Number(q.timeout) >= 5 && Number(q.timeout) <= 90))
    return error(400, "request_not_valid", 'The "timeout" parameter must be an integer from 5 to 90 seconds.');
  const id = createHash("sha256")
    .update(
      JSON.stringify(
        Object.entries(q)
          .filter(([k]) => k !== "access_key")
          .sort(),
      ),
    )
    .digest("hex")
    .slice(0, 24);
  return { status: 200, body: { screenshot_url: `https://cache.screenshotone.com/${id}.${format}` } };
}

export const screenshotoneSandbox = {
  key: "screenshotone",
  apiKey: "screenshotone-sandbox-key",
  priceAtomic: "9000",
  create: screenshotoneVendor,
} as const satisfies SandboxVendor;
