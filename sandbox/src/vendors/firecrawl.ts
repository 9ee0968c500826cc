// Firecrawl v2 stand-in (API with a bearer key, and its MPP host): POST /v2/scrape {url, formats: [{type: "json", schema|prompt}]}
// → {success: true, data: {json, metadata}}; errors {success: false, error}. Extracted values are
// derived deterministically from the URL and the schema's property names.
import {
  authToken,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

function error(status: number, message: string): VendorReply {
  return { status, body: { success: false, error: message } };
}

export function firecrawlVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "firecrawl",
    price: { amountAtomic: priceAtomic, description: "Firecrawl scrape" },
    authenticate: (req) => (authToken(req, "Bearer") === apiKey ? undefined : error(401, "Unauthorized: Invalid token")),
    errorReply: error,
    routes: [{ method: "POST", path: "/v2/scrape", handle: scrape }],
  };
}

function scrape(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b) || typeof b.url !== "string") return error(400, "Bad Request: url is required");
  let url: URL;
  try {
    url = new URL(b.url);
  } catch {
    return error(400, "Bad Request: invalid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return error(400, "Bad Request: URL must use http or https");
  const formats = b.formats === undefined ? ["markdown"] : b.formats;
  if (!Array.isArray(formats)) return error(400, "Bad Request: formats must be an array");
  const title = `${url.hostname.replace(/^www\./, "")} ${url.pathname === "/" ? "home" : url.pathname.split("/").filter(Boolean).join(" ")}`;
  const data: Record<string, unknown> = {
    metadata: {
      title,
      description: `Page at ${url.href}`,
      sourceURL: b.url,
      url: url.href,
      statusCode: 200,
      contentType: "text/html; charset=utf-8",
    },
  };
  for (const format of formats) {
    if (format === "markdown") data.markdown = `# ${title}\n\nContent of ${url.href}.`;
    else if (isObject(format) && format.type === "json") {
      if (!isObject(format.schema) && typeof format.prompt !== "string")
        return error(400, "Bad Request: json format needs a schema or a prompt");
      const properties =
        isObject(format.schema) && isObject(format.schema.properties) ? Object.keys(format.schema.properties) : ["summary"];
      data.json = Object.fromEntries(properties.map((p) => [p, p.toLowerCase() === "title" ? title : `${p} of ${url.hostname}`]));
    } else return error(400, `Bad Request: unsupported format ${JSON.stringify(format)}`);
  }
  return { status: 200, body: { success: true, data } };
}

export const firecrawlSandbox = {
  key: "firecrawl",
  apiKey: "fc-sandbox-key",
  priceAtomic: "10000",
  create: firecrawlVendor,
} as const satisfies SandboxVendor;
