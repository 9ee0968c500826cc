// Alpha Vantage (finance.quote): GET /query?function=GLOBAL_QUOTE&symbol=&apikey= (the key is a query
// parameter on direct routes) → {"Global Quote": {"01. symbol", ..., "10. change percent"}} with every
// value a string. The API answers 200 for its errors too: {"Error Message"} for a bad call or key,
// {"Information"} or {"Note"} when our rate limit or plan is exhausted, and an empty "Global Quote"
// for an unknown symbol; each is mapped to the status it means.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";

/** The numbered keys of a Global Quote and the names we give them. */
const NUMBERS = [
  ["02. open", "open"],
  ["03. high", "high"],
  ["04. low", "low"],
  ["05. price", "price"],
  ["08. previous close", "previousClose"],
  ["09. change", "change"],
] as const;

export class AlphavantageAdapter implements ProviderAdapter {
  readonly providerKey = "alphavantage";
  readonly capabilityKeys = ["finance.quote"] as const;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const symbol = new InputReader(this.providerKey, input).string("symbol", true).trim().toUpperCase();
    const query = new URLSearchParams({ function: "GLOBAL_QUOTE", symbol, ...(ctx.credentials ? { apikey: ctx.credentials.apiKey } : {}) });
    return { method: "GET", url: `${ctx.baseUrl}/query?${query.toString()}`, headers: {} };
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) throw vendorError(this.providerKey, res, { message: stringField(res.body, "Error Message") });
    const b = res.body;
    const limit = stringField(b, "Information") ?? stringField(b, "Note");
    if (limit) throw vendorError(this.providerKey, { ...res, status: 429 }, { code: "rate_limited", message: limit });
    const error = stringField(b, "Error Message");
    if (error) {
      const ourKey = /apikey/i.test(error);
      throw vendorError(
        this.providerKey,
        { ...res, status: ourKey ? 401 : 400 },
        { code: ourKey ? "invalid_api_key" : "invalid_call", message: error },
      );
    }
    const quote = isRecord(b) ? b["Global Quote"] : undefined;
    if (!isRecord(quote)) throw invalidResponse(this.providerKey, res, 'without a "Global Quote"');
    const symbol = new InputReader(this.providerKey, input).string("symbol", true).trim().toUpperCase();
    if (Object.keys(quote).length === 0)
      throw vendorError(this.providerKey, { ...res, status: 404 }, { code: "symbol_not_found", message: `no quote for ${symbol}` });
    const numbers = Object.fromEntries(NUMBERS.map(([key, name]) => [name, Number(stringField(quote, key))]));
    const volume = Number(stringField(quote, "06. volume"));
    const percent = Number((stringField(quote, "10. change percent") ?? "").replace(/%$/, ""));
    const day = stringField(quote, "07. latest trading day");
    if (Object.values(numbers).some((n) => !Number.isFinite(n)) || !Number.isFinite(volume) || !Number.isFinite(percent) || !day)
      throw invalidResponse(this.providerKey, res, "with a Global Quote missing numbers");
    return {
      status: "completed",
      data: { symbol: stringField(quote, "01. symbol") ?? symbol, ...numbers, changePercent: percent, volume, latestTradingDay: day },
    };
  }
}

export const alphavantageProvider: ProviderModule = {
  providerKey: "alphavantage",
  defaultBaseUrls: { direct: "https://www.alphavantage.co" },
  create: () => new AlphavantageAdapter(),
};
