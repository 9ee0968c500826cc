import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { mistralProvider } from "./mistral";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(mistralProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const CAP = "document.ocr";

describe("Mistral OCR adapter (document.ocr)", () => {
  it("sends a PDF as document_url and an image as image_url, bounded to the pages one call is priced for", () => {
    const ctx = { baseUrl: "https://api.mistral.ai", credentials: { apiKey: "ms_1" } };
    expect(adapter.buildRequest(CAP, { fileUrl: "https://files.example/invoice.pdf", pages: [0, 2] }, ctx)).toEqual({
      method: "POST",
      url: "https://api.mistral.ai/v1/ocr",
      headers: { authorization: "Bearer ms_1" },
      body: {
        model: "mistral-ocr-latest",
        document: { type: "document_url", document_url: "https://files.example/invoice.pdf" },
        pages: [0, 2],
        include_image_base64: false,
      },
    });
    const image = adapter.buildRequest(CAP, { fileUrl: "https://files.example/receipt.JPG" }, ctx).body as {
      document: unknown;
      pages: number[];
    };
    expect(image.document).toEqual({ type: "image_url", image_url: "https://files.example/receipt.JPG" });
    expect(image.pages).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(() => adapter.buildRequest(CAP, { fileUrl: "https://x/a.pdf", pages: Array.from({ length: 11 }, (_, i) => i) }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "pages" }),
    );
    expect(() => adapter.buildRequest(CAP, { fileUrl: "file:///etc/passwd" }, ctx)).toThrow(expect.objectContaining({ field: "fileUrl" }));
  });

  it("maps {object: error, message, type}: a file it cannot read is the caller's, 401 and 429 ours", () => {
    const err = (type: string) => ({ object: "error", message: "m", type, param: null, code: null });
    expect(() => adapter.parseResponse(CAP, response(400, err("invalid_request_file_error")), {})).toThrow(
      expect.objectContaining({ status: 400, blame: "input", vendorCode: "invalid_request_file_error" }),
    );
    expect(() => adapter.parseResponse(CAP, response(401, { message: "Unauthorized" }), {})).toThrow(
      expect.objectContaining({ blame: "provider" }),
    );
    expect(() => adapter.parseResponse(CAP, response(429, err("rate_limited")), {})).toThrow(expect.objectContaining({ retryable: true }));
    expect(() => adapter.parseResponse(CAP, response(200, { pages: [{ index: 0 }] }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("reads a PDF's pages through the sandbox; pages past the end are skipped", async () => {
    const { result } = await routes.execute("mistral", "direct", CAP, { fileUrl: "https://files.example/invoice-2026.pdf" });
    const pages = result.data.pages as Array<{ index: number; markdown: string }>;
    expect(pages.map((p) => p.index)).toEqual([0, 1, 2]);
    expect(pages[1]?.markdown).toContain("page 2 of invoice-2026.pdf");
    expect(result.data.pagesProcessed).toBe(3);
    expect(routes.sandbox().control.calls("mistral")[0]?.headers.authorization).toBe("Bearer mistral-sandbox-key");
  });

  it("answers a document the vendor cannot download as the caller's 400", async () => {
    expect(await routes.executeError("mistral", "direct", CAP, { fileUrl: "https://files.invalid/missing.pdf" })).toMatchObject({
      status: 400,
      blame: "input",
    });
  });
});
