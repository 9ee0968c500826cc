import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { FirecrawlAdapter } from "./firecrawl";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = new FirecrawlAdapter();
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const input = { url: "https://example.com/docs", fields: ["title", "pricing", "authentication"] };

describe("Firecrawl adapter (web.extract)", () => {
  it("builds POST /v2/scrape with a json format whose schema has one property per field", () => {
    expect(adapter.buildRequest("web.extract", input, { baseUrl: "https://api.firecrawl.dev", credentials: { apiKey: "fc-1" } })).toEqual({
      method: "POST",
      url: "https://api.firecrawl.dev/v2/scrape",
      headers: { Authorization: "Bearer fc-1" },
      body: {
        url: "https://example.com/docs",
        formats: [
          {
            type: "json",
            schema: {
              type: "object",
              properties: { title: { type: "string" }, pricing: { type: "string" }, authentication: { type: "string" } },
            },
          },
        ],
        onlyMainContent: true,
      },
    });
  });

  it("returns exactly the requested fields, null when missing; maps {success: false, error}", () => {
    const body = { success: true, data: { json: { title: "Docs", pricing: "Usage based", extra: "dropped" }, metadata: {} } };
    expect(adapter.parseResponse("web.extract", response(200, body), input).data).toEqual({
      title: "Docs",
      pricing: "Usage based",
      authentication: null,
    });
    expect(() => adapter.parseResponse("web.extract", response(402, { success: false, error: "Payment required" }), input)).toThrow(
      expect.objectContaining({ blame: "provider", retryable: false }),
    );
    expect(() => adapter.parseResponse("web.extract", response(200, { success: false }), input)).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("uses the caller's schema when given, and needs fields or a schema", () => {
    const schema = {
      type: "object",
      properties: { price: { type: "number" }, plans: { type: "array", items: { type: "string" } } },
      required: ["price"],
    };
    expect(adapter.buildRequest("web.extract", { url: "https://example.com", schema }, { baseUrl: "https://x" }).body).toMatchObject({
      formats: [{ type: "json", schema }],
    });
    expect(
      adapter.parseResponse("web.extract", response(200, { success: true, data: { json: { price: 9, other: 1 } } }), {
        url: "https://example.com",
        schema,
      }).data,
    ).toEqual({ price: 9, plans: null });
    expect(() => adapter.buildRequest("web.extract", { url: "https://example.com" }, { baseUrl: "https://x" })).toThrow(/fields.*schema/);
  });

  it("extracts over MPP through the sandbox", async () => {
    const { res, result } = await routes.execute("firecrawl", "mpp", "web.extract", input);
    expect(res.payment?.settlement).toBe("settled");
    expect(Object.keys(result.data)).toEqual(["title", "pricing", "authentication"]);
    expect(result.data.pricing).toBe("pricing of example.com");
  });

  it("reports a bad URL as the caller's problem", async () => {
    expect(await routes.executeError("firecrawl", "mpp", "web.extract", { url: "ftp://example.com", fields: ["title"] })).toMatchObject({
      kind: "http_4xx",
      status: 400,
      blame: "input",
    });
  });
});
