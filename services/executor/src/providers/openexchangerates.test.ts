import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { openexchangeratesProvider } from "./openexchangerates";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(openexchangeratesProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const CAP = "finance.fx.rate";

describe("Open Exchange Rates adapter (finance.fx.rate)", () => {
  it("asks latest.json, or historical/<date>.json, for one base and quote with Authorization: Token", () => {
    const ctx = { baseUrl: "https://openexchangerates.org", credentials: { apiKey: "oxr_1" } };
    expect(adapter.buildRequest(CAP, { base: "usd", quote: "EUR" }, ctx)).toEqual({
      method: "GET",
      url: "https://openexchangerates.org/api/latest.json?base=USD&symbols=EUR",
      headers: { authorization: "Token oxr_1" },
    });
    expect(adapter.buildRequest(CAP, { base: "EUR", quote: "JPY", date: "2024-02-29" }, ctx).url).toBe(
      "https://openexchangerates.org/api/historical/2024-02-29.json?base=EUR&symbols=JPY",
    );
    expect(() => adapter.buildRequest(CAP, { base: "EURO", quote: "USD" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "base" }),
    );
    expect(() => adapter.buildRequest(CAP, { base: "EUR", quote: "USD", date: "29/02/2024" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "date" }),
    );
  });

  it("normalizes the rate; a missing quote currency is the caller's 404; maps {message, description}", () => {
    const body = { timestamp: 1768478400, base: "USD", rates: { EUR: 0.92 } };
    expect(adapter.parseResponse(CAP, response(200, body), { base: "USD", quote: "EUR" }).data).toEqual({
      base: "USD",
      quote: "EUR",
      rate: 0.92,
      date: "2026-01-15",
      asOf: "2026-01-15T12:00:00.000Z",
    });
    expect(() => adapter.parseResponse(CAP, response(200, { ...body, rates: {} }), { base: "USD", quote: "XYZ" })).toThrow(
      expect.objectContaining({ status: 404, blame: "input", vendorCode: "currency_not_found" }),
    );
    const denied = {
      error: true,
      status: 403,
      message: "not_allowed",
      description: "Changing the API `base` currency is available for Developer, Enterprise and Unlimited plan clients.",
    };
    expect(() => adapter.parseResponse(CAP, response(403, denied), { base: "EUR", quote: "USD" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "provider", vendorCode: "not_allowed" }),
    );
  });

  it("reads a latest and a historical rate through the sandbox over the direct API", async () => {
    const latest = await routes.execute("openexchangerates", "direct", CAP, { base: "EUR", quote: "GBP" });
    expect(latest.result.data).toMatchObject({ base: "EUR", quote: "GBP" });
    expect(latest.result.data.rate).toBeGreaterThan(0.8);
    expect(latest.result.data.rate).toBeLessThan(0.9);
    const past = await routes.execute("openexchangerates", "direct", CAP, { base: "USD", quote: "JPY", date: "2024-02-29" });
    expect(past.result.data).toMatchObject({ base: "USD", quote: "JPY", date: "2024-02-29" });
    expect(
      routes
        .sandbox()
        .control.calls("openexchangerates")
        .map((c) => c.path),
    ).toEqual(["/api/latest.json", "/api/historical/2024-02-29.json"]);
  });

  it("answers a date before the vendor's history as the caller's 400, an unknown currency as 404", async () => {
    expect(await routes.executeError("openexchangerates", "direct", CAP, { base: "USD", quote: "EUR", date: "1990-01-01" })).toMatchObject({
      status: 400,
      blame: "input",
      vendorCode: "date_not_available",
    });
    expect(await routes.executeError("openexchangerates", "direct", CAP, { base: "USD", quote: "XYZ" })).toMatchObject({
      status: 404,
      blame: "input",
    });
  });
});
