import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { screenshotoneProvider } from "./screenshotone";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(screenshotoneProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const soError = (code: string) => ({ is_successful: false, error_code: code, error_message: "m" });

describe("ScreenshotOne adapter (web.screenshot)", () => {
  it("builds GET /take with JSON response, ad and banner blocking, the key in a header on direct routes", () => {
    expect(
      adapter.buildRequest(
        "web.screenshot",
        { url: "https://example.com", fullPage: true, format: "jpeg" },
        { baseUrl: "https://api.screenshotone.com", credentials: { apiKey: "so_1" } },
      ),
    ).toEqual({
      method: "GET",
      url: "https://api.screenshotone.com/take?url=https%3A%2F%2Fexample.com&format=jpeg&full_page=true&block_ads=true&block_cookie_banners=true&response_type=json&timeout=14",
      headers: { "X-Access-Key": "so_1" },
    });
    expect(adapter.buildRequest("web.screenshot", { url: "https://example.com" }, { baseUrl: "https://s" }).url).toContain(
      "format=png&full_page=false",
    );
    expect(() => adapter.buildRequest("web.screenshot", { url: "https://e", format: "gif" }, { baseUrl: "https://s" })).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "format" }),
    );
    expect(() => adapter.buildRequest("web.screenshot", { url: "https://e", fullPage: "yes" }, { baseUrl: "https://s" })).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "fullPage" }),
    );
  });

  it("returns the stored image URL; blames our account for key and quota codes, the caller for a bad request", () => {
    expect(
      adapter.parseResponse("web.screenshot", response(200, { screenshot_url: "https://c/1.png" }), { url: "https://e" }).data,
    ).toEqual({
      imageUrl: "https://c/1.png",
      format: "png",
      fullPage: false,
    });
    expect(() => adapter.parseResponse("web.screenshot", response(200, "\u0089PNG"), { url: "https://e" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() => adapter.parseResponse("web.screenshot", response(400, soError("access_key_required")), { url: "https://e" })).toThrow(
      expect.objectContaining({ blame: "provider", vendorCode: "access_key_required" }),
    );
    expect(() => adapter.parseResponse("web.screenshot", response(400, soError("request_not_valid")), { url: "https://e" })).toThrow(
      expect.objectContaining({ blame: "input", vendorCode: "request_not_valid" }),
    );
  });

  it("takes a screenshot on the direct API through the sandbox, deterministic per options", async () => {
    const first = await routes.execute("screenshotone", "direct", "web.screenshot", { url: "https://example.com", fullPage: true });
    const again = await routes.execute("screenshotone", "direct", "web.screenshot", { url: "https://example.com", fullPage: true });
    expect(first.result.data).toMatchObject({
      imageUrl: expect.stringMatching(/^https:\/\/cache\.screenshotone\.com\/[0-9a-f]{24}\.png$/),
      fullPage: true,
    });
    expect(again.result.data.imageUrl).toBe(first.result.data.imageUrl);
    expect(routes.sandbox().control.calls("screenshotone").at(-1)?.query).toMatchObject({ response_type: "json", block_ads: "true" });
  });

  it("reports a page URL ScreenshotOne refuses as the caller's problem", async () => {
    await expect(routes.executeError("screenshotone", "direct", "web.screenshot", { url: "ftp://example.com" })).resolves.toMatchObject({
      kind: "http_4xx",
      status: 400,
      blame: "input",
      vendorCode: "request_not_valid",
    });
  });
});
