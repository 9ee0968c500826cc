import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { coingeckoProvider } from "./coingecko";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(coingeckoProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const CAP = "finance.crypto.price";

describe("CoinGecko adapter (finance.crypto.price)", () => {
  it("asks simple/price by id, or by symbol for an upper-case ticker, with the pro key only on direct routes", () => {
    const req = adapter.buildRequest(
      CAP,
      { coin: "bitcoin" },
      { baseUrl: "https://pro-api.coingecko.com", credentials: { apiKey: "cg_1" } },
    );
    expect(req).toMatchObject({ method: "GET", headers: { "x-cg-pro-api-key": "cg_1" } });
    const url = new URL(req.url);
    expect(url.pathname).toBe("/api/v3/simple/price");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      ids: "bitcoin",
      vs_currencies: "usd",
      include_market_cap: "true",
      include_24hr_change: "true",
      include_last_updated_at: "true",
    });
    const bySymbol = new URL(adapter.buildRequest(CAP, { coin: "ETH", vsCurrency: "EUR" }, { baseUrl: "https://x" }).url);
    expect(bySymbol.searchParams.get("symbols")).toBe("eth");
    expect(bySymbol.searchParams.get("vs_currencies")).toBe("eur");
    expect(bySymbol.searchParams.has("ids")).toBe(false);
  });

  it("normalizes the price entry; an absent coin is the caller's 404; maps {status: {error_code, error_message}}", () => {
    const body = { bitcoin: { usd: 100, usd_market_cap: 2000, usd_24h_change: 1.5, last_updated_at: 1768478400 } };
    expect(adapter.parseResponse(CAP, response(200, body), { coin: "bitcoin" }).data).toEqual({
      coin: "bitcoin",
      vsCurrency: "USD",
      price: 100,
      marketCap: 2000,
      change24hPercent: 1.5,
      lastUpdatedAt: "2026-01-15T12:00:00.000Z",
    });
    expect(() => adapter.parseResponse(CAP, response(200, {}), { coin: "notacoin" })).toThrow(
      expect.objectContaining({ kind: "http_4xx", status: 404, blame: "input", vendorCode: "coin_not_found" }),
    );
    expect(() =>
      adapter.parseResponse(CAP, response(429, { status: { error_code: 429, error_message: "rate limited" } }), { coin: "bitcoin" }),
    ).toThrow(expect.objectContaining({ kind: "http_4xx", retryable: true, blame: "provider", vendorCode: "429" }));
    expect(() => adapter.parseResponse(CAP, response(200, { bitcoin: { eur: 1 } }), { coin: "bitcoin" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("prices a coin through the sandbox over the direct API", async () => {
    const { result } = await routes.execute("coingecko", "direct", CAP, { coin: "ETH", vsCurrency: "EUR" });
    expect(result.data).toMatchObject({ coin: "eth", vsCurrency: "EUR", lastUpdatedAt: "2026-01-15T12:00:00.000Z" });
    expect(result.data.price).toBeGreaterThan(3000);
    expect(result.data.marketCap).toBeGreaterThan(1e11);
    const [call] = routes.sandbox().control.calls("coingecko");
    expect(call?.headers["x-cg-pro-api-key"]).toBe("coingecko-sandbox-key");
  });

  it("refuses an unknown coin as the caller's mistake, and an injected outage as a retryable provider error", async () => {
    expect(await routes.executeError("coingecko", "direct", CAP, { coin: "notacoin" })).toMatchObject({ status: 404, blame: "input" });
    routes.sandbox().control.setFault({ provider: "coingecko", mode: "5xx", count: 1 });
    expect(await routes.executeError("coingecko", "direct", CAP, { coin: "bitcoin" })).toMatchObject({
      kind: "http_5xx",
      retryable: true,
      blame: "provider",
    });
  });
});
