// Alpha Vantage (finance.quote): GET /query?function=GLOBAL_QUOTE&symbol=&apikey= (the key is a query
// parameter on direct routes) → {"Global Quote": {"01. symbol", ..., "10. change percent"}} with every
// value a string. The API answers 200 for its errors too: {"Error Message"} for a bad call or key,
// {"Information"} or {"Note"} when our rate limit or plan is exhausted, and an empty "Global Quote"
// for an unknown symbol; each is mapped to the status it means.
import { InputReader } from "./input";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "alphavantage";

/** The numbered keys of a Global Quote and the names we give them. */
const NUMBERS = [
  ["02. open", "open"],
  ["03. high", "high"],
  ["04. low", "low"],
  ["05. price", "price"],
  ["08. previous close", "previousClose"],
  ["09. change", "change"],
] as const;

export const alphavantageProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://www.alphavantage.co" },
  capabilities: {
    "finance.quote": {
      request(input, ctx) {
        const symbol = new InputReader(KEY, input).string("symbol", true).trim().toUpperCase();
        const query = new URLSearchParams({
          function: "GLOBAL_QUOTE",
          symbol,
          ...ourKeyAs(ctx, "apikey"),
        });
        return { method: "GET", url: `${ctx.baseUrl}/query?${query.toString()}`, headers: {} };
      },
      parse(res, input) {
        if (res.status !== 200) throw vendorError(KEY, res, { message: stringField(res.body, "Error Message") });
        const b = res.body;
        const limit = stringField(b, "Information") ?? stringField(b, "Note");
        if (limit) throw vendorError(KEY, { ...res, status: 429 }, { code: "rate_limited", message: limit });
        const error = stringField(b, "Error Message");
        if (error) {
          const ourKey = /apikey/i.test(error);
          throw vendorError(
            KEY,
            { ...res, status: ourKey ? 401 : 400 },
            { code: ourKey ? "invalid_api_key" : "invalid_call", message: error },
          );
        }
        const quote = isRecord(b) ? b["Global Quote"] : undefined;
        if (!isRecord(quote)) throw invalidResponse(KEY, res, 'without a "Global Quote"');
        const symbol = new InputReader(KEY, input).string("symbol", true).trim().toUpperCase();
        if (Object.keys(quote).length === 0)
          throw vendorError(KEY, { ...res, status: 404 }, { code: "symbol_not_found", message: `no quote for ${symbol}` });
        const numbers = Object.fromEntries(NUMBERS.map(([key, name]) => [name, Number(stringField(quote, key))]));
        const volume = Number(stringField(quote, "06. volume"));
        const percent = Number((stringField(quote, "10. change percent") ?? "").replace(/%$/, ""));
        const day = stringField(quote, "07. latest trading day");
        if (Object.values(numbers).some((n) => !Number.isFinite(n)) || !Number.isFinite(volume) || !Number.isFinite(percent) || !day)
          throw invalidResponse(KEY, res, "with a Global Quote missing numbers");
        return {
          status: "completed",
          data: { symbol: stringField(quote, "01. symbol") ?? symbol, ...numbers, changePercent: percent, volume, latestTradingDay: day },
        };
      },
    },
  },
});
