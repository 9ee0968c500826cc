// Mistral OCR (document.ocr): POST /v1/ocr (`Authorization: Bearer` on direct routes) with {model:
// mistral-ocr-latest, document: {type: document_url | image_url, …}, pages, include_image_base64: false}
// → {pages: [{index, markdown, dimensions}], usage_info: {pages_processed}}. Mistral bills per page and
// a route is priced per call, so a call reads at most MAX_PAGES pages: the ones asked for, else the
// first MAX_PAGES. Errors are {object: "error", message, type, param, code} (or {message} on a 401).
import type { ProviderHttpRequest } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "mistral";

/** Pages one call may read (what the route's per-call price covers). */
export const MAX_PAGES = 10;
const IMAGE = /\.(png|jpe?g|webp|gif|avif|bmp|tiff?)$/i;

function pagesOf(providerKey: string, input: CapabilityInput): number[] {
  const raw = new InputReader(providerKey, input).raw("pages");
  if (raw === undefined || raw === null) return Array.from({ length: MAX_PAGES }, (_, i) => i);
  const ok = Array.isArray(raw) && raw.length > 0 && raw.length <= MAX_PAGES && raw.every((p) => Number.isInteger(p) && (p as number) >= 0);
  if (!ok) throw inputRefusal(providerKey, `\`pages\` must list 1 to ${MAX_PAGES} 0-based page numbers`, "pages");
  return [...new Set(raw as number[])];
}

export const mistralProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.mistral.ai" },
  capabilities: {
    "document.ocr": {
      request(input, ctx): ProviderHttpRequest {
        const url = new InputReader(KEY, input).string("fileUrl", true).trim();
        if (!/^https?:\/\//i.test(url)) throw inputRefusal(KEY, "`fileUrl` must be an http(s) URL", "fileUrl");
        const image = IMAGE.test(new URL(url).pathname);
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v1/ocr`,
          headers: ourKeyAs(ctx, "authorization", "Bearer "),
          body: {
            model: "mistral-ocr-latest",
            document: image ? { type: "image_url", image_url: url } : { type: "document_url", document_url: url },
            pages: pagesOf(KEY, input),
            include_image_base64: false,
          },
        };
      },
      parse(res, _input) {
        if (res.status !== 200) {
          const message = isRecord(res.body) && typeof res.body.message === "string" ? res.body.message : undefined;
          throw vendorError(KEY, res, { code: stringField(res.body, "type"), message });
        }
        const pages = isRecord(res.body) && Array.isArray(res.body.pages) ? res.body.pages.filter(isRecord) : undefined;
        if (!pages || pages.some((p) => typeof p.index !== "number" || typeof p.markdown !== "string"))
          throw invalidResponse(KEY, res, "without pages of index and markdown");
        const usage = isRecord(res.body) && isRecord(res.body.usage_info) ? res.body.usage_info : {};
        return {
          status: "completed",
          data: {
            pages: pages.map((p) => ({ index: p.index, markdown: p.markdown })),
            pagesProcessed: typeof usage.pages_processed === "number" ? usage.pages_processed : pages.length,
            model: stringField(res.body, "model") ?? null,
          },
        };
      },
    },
  },
});
