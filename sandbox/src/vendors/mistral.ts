// Mistral OCR stand-in (`Authorization: Bearer`): POST /v1/ocr {model, document: {type: "document_url",
// document_url} | {type: "image_url", image_url}, pages?, include_image_base64?} → {pages: [{index,
// markdown, images, dimensions}], model, document_annotation, usage_info: {pages_processed,
// doc_size_bytes}}. Errors {object: "error", message, type, param, code} as Mistral answers them. It
// fetches nothing: a PDF URL is a three-page document, an image one page, each page's text naming the file.
import {
  authToken,
  isObject,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

function error(status: number, message: string, type = "invalid_request_error", param: string | null = null): VendorReply {
  return { status, body: { object: "error", message, type, param, code: null } };
}

const MODELS = new Set(["mistral-ocr-latest", "mistral-ocr-2505", "mistral-ocr-2503"]);
const PDF_PAGES = 3;

export function mistralVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "mistral",
    price: { amountAtomic: priceAtomic, description: "Mistral OCR" },
    authenticate: (req) =>
      authToken(req, "Bearer") === apiKey ? undefined : { status: 401, body: { message: "Unauthorized", request_id: "sandbox" } },
    errorReply: (status, message) => error(status, message, status >= 500 ? "internal_server_error" : "invalid_request_error"),
    routes: [{ method: "POST", path: "/v1/ocr", handle: ocr }],
  };
}

function sourceOf(document: unknown): { url: string; image: boolean } | VendorReply {
  if (!isObject(document)) return error(422, "document is required", "invalid_request_message_error", "document");
  const image = document.type === "image_url";
  if (!image && document.type !== "document_url")
    return error(422, "document.type must be document_url or image_url", "invalid_request_message_error", "document.type");
  const url = image ? document.image_url : document.document_url;
  if (typeof url !== "string" || !/^(https?:\/\/|data:)/.test(url))
    return error(422, `document.${image ? "image_url" : "document_url"} must be a URL`, "invalid_request_message_error", "document");
  if (/\/\/[^/]*\.invalid\//.test(url))
    return error(400, `Failed to download the document from ${url}`, "invalid_request_file_error", "document");
  return { url, image };
}

function ocr(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "Request body is required.");
  if (typeof b.model !== "string" || !MODELS.has(b.model)) return error(400, `Invalid model: ${String(b.model)}`, "invalid_model", "model");
  const source = sourceOf(b.document);
  if ("status" in source) return source;
  const total = source.image ? 1 : PDF_PAGES;
  let wanted = Array.from({ length: total }, (_, i) => i);
  if (b.pages !== undefined && b.pages !== null) {
    if (!Array.isArray(b.pages) || !b.pages.every((p) => Number.isInteger(p) && (p as number) >= 0))
      return error(422, "pages must be a list of 0-based page numbers", "invalid_request_message_error", "pages");
    // Pages past the end of the document are skipped.
    wanted = [...new Set(b.pages as number[])].filter((p) => p < total).sort((x, y) => x - y);
  }
  const name = decodeURIComponent(source.url.split(/[?#]/)[0]!.split("/").pop() || "document");
  const pages = wanted.map((index) => ({
    index,
    markdown: `# ${name}, page ${index + 1}\n\nThis is the recognized text of page ${index + 1} of ${name}.\n\n| Item | Amount |\n| --- | --- |\n| Subtotal | 120.00 |\n| VAT | 27.60 |`,
    images: [],
    dimensions: { dpi: 200, height: 2200, width: 1700 },
  }));
  return {
    status: 200,
    body: {
      pages,
      model: "mistral-ocr-2505",
      document_annotation: null,
      usage_info: { pages_processed: pages.length, doc_size_bytes: 48_213 * total },
    },
  };
}

export const mistralSandbox = {
  key: "mistral",
  apiKey: "mistral-sandbox-key",
  priceAtomic: "1000",
  create: mistralVendor,
} as const satisfies SandboxVendor;
