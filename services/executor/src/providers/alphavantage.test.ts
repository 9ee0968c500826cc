import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { alphavantageProvider } from "./alphavantage";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(alphavantageProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const CAP = "finance.quote";

describe("Alpha Vantage adapter (finance.quote)", () => {
  it("asks GLOBAL_QUOTE with the apikey parameter only on direct routes", () => {
    expect(
      adapter.buildRequest(CAP, { symbol: "ibm" }, { baseUrl: "https://www.alphavantage.co", credentials: { apiKey: "av_1" } }),
    ).toEqual({
      method: "GET",
      url: "https://www.alphavantage.co/query?function=GLOBAL_QUOTE&symbol=IBM&apikey=av_1",
      headers: {},
    });
    expect(adapter.buildRequest(CAP, { symbol: "IBM" }, { baseUrl: "https://x" }).url).toBe(
      "https://x/query?function=GLOBAL_QUOTE&symbol=IBM",
    );
  });

  it("turns the numbered string fields into numbers", () => {
    const quote = {
      "01. symbol": "IBM",
      "02. open": "221.1000",
      "03. high": "224.3500",
      "04. low": "220.5000",
      "05. price": "223.6700",
      "06. volume": "3481220",
      "07. latest trading day": "2026-01-15",
      "08. previous close": "221.0200",
      "09. change": "2.6500",
      "10. change percent": "1.1990%",
    };
    expect(adapter.parseResponse(CAP, response(200, { "Global Quote": quote }), { symbol: "IBM" }).data).toEqual({
      symbol: "IBM",
      open: 221.1,
      high: 224.35,
      low: 220.5,
      price: 223.67,
      previousClose: 221.02,
      change: 2.65,
      changePercent: 1.199,
      volume: 3481220,
      latestTradingDay: "2026-01-15",
    });
  });

  it("maps the 200-status errors: empty quote → 404 input, Error Message → 400 input or 401 key, Information → 429 retryable", () => {
    const parse = (body: unknown) => () => adapter.parseResponse(CAP, response(200, body), { symbol: "NOPE" });
    expect(parse({ "Global Quote": {} })).toThrow(expect.objectContaining({ status: 404, blame: "input", vendorCode: "symbol_not_found" }));
    expect(parse({ "Error Message": "Invalid API call." })).toThrow(expect.objectContaining({ status: 400, blame: "input" }));
    expect(parse({ "Error Message": "the parameter apikey is invalid or missing." })).toThrow(
      expect.objectContaining({ status: 401, blame: "provider" }),
    );
    expect(parse({ Information: "Our standard API rate limit is 25 requests per day." })).toThrow(
      expect.objectContaining({ status: 429, retryable: true, blame: "provider" }),
    );
    expect(parse({ something: "else" })).toThrow(expect.objectContaining({ kind: "invalid_response" }));
  });

  it("quotes a symbol through the sandbox over the direct API; an unknown one is the caller's 404", async () => {
    const { result } = await routes.execute("alphavantage", "direct", CAP, { symbol: "AAPL" });
    expect(result.data).toMatchObject({ symbol: "AAPL", price: 230.54, latestTradingDay: "2026-01-15" });
    expect(routes.sandbox().control.calls("alphavantage")[0]?.query).toMatchObject({ apikey: "alphavantage-sandbox-key" });
    expect(await routes.executeError("alphavantage", "direct", CAP, { symbol: "ZZZZ" })).toMatchObject({ status: 404, blame: "input" });
  });
});
