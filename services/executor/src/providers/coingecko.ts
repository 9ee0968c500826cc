// CoinGecko (finance.crypto.price): GET /api/v3/simple/price with `x-cg-pro-api-key` on direct routes.
// `coin` is a CoinGecko id (`bitcoin`), sent as `ids`, or an upper-case ticker (`ETH`), sent as
// `symbols`; the answer is keyed by what was asked: {<key>: {<vs>, <vs>_market_cap, <vs>_24h_change,
// last_updated_at}}. An unknown coin is absent from a 200 answer: a 404 blamed on the input. Errors
// are {status: {error_code, error_message}}.
import type { ProviderHttpRequest } from "../domain/rail-port";
import { InputReader } from "./input";
import type { CapabilityInput } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "coingecko";

/** A ticker as callers write it (ETH, BTC); anything else is read as a CoinGecko id. */
const TICKER = /^[A-Z0-9]{2,10}$/;

function coinQuery(input: CapabilityInput, providerKey: string): { param: "ids" | "symbols"; key: string; vs: string } {
  const read = new InputReader(providerKey, input);
  const coin = read.string("coin", true).trim();
  const vs = (read.string("vsCurrency") ?? "USD").trim().toLowerCase();
  return TICKER.test(coin) ? { param: "symbols", key: coin.toLowerCase(), vs } : { param: "ids", key: coin.toLowerCase(), vs };
}

export const coingeckoProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://pro-api.coingecko.com" },
  capabilities: {
    "finance.crypto.price": {
      request(input, ctx): ProviderHttpRequest {
        const { param, key, vs } = coinQuery(input, KEY);
        const query = new URLSearchParams({
          [param]: key,
          vs_currencies: vs,
          include_market_cap: "true",
          include_24hr_change: "true",
          include_last_updated_at: "true",
        });
        return {
          method: "GET",
          url: `${ctx.baseUrl}/api/v3/simple/price?${query.toString()}`,
          headers: ourKeyAs(ctx, "x-cg-pro-api-key"),
        };
      },
      parse(res, input) {
        if (res.status !== 200) {
          const status = isRecord(res.body) && isRecord(res.body.status) ? res.body.status : undefined;
          const code = status && typeof status.error_code === "number" ? String(status.error_code) : undefined;
          throw vendorError(KEY, res, {
            ...(code ? { code } : {}),
            ...(stringField(status, "error_message") ? { message: stringField(status, "error_message") } : {}),
          });
        }
        if (!isRecord(res.body)) throw invalidResponse(KEY, res, "not a JSON object");
        const { key, vs } = coinQuery(input, KEY);
        const entry = res.body[key];
        if (entry === undefined)
          throw vendorError(KEY, { ...res, status: 404 }, { code: "coin_not_found", message: `no coin "${key}" on CoinGecko` });
        const price = isRecord(entry) ? entry[vs] : undefined;
        if (!isRecord(entry) || typeof price !== "number") throw invalidResponse(KEY, res, `without a ${vs} price for ${key}`);
        const num = (field: string) => (typeof entry[field] === "number" ? (entry[field] as number) : null);
        const updated = num("last_updated_at");
        return {
          status: "completed",
          data: {
            coin: key,
            vsCurrency: vs.toUpperCase(),
            price,
            marketCap: num(`${vs}_market_cap`),
            change24hPercent: num(`${vs}_24h_change`),
            lastUpdatedAt: updated === null ? null : new Date(updated * 1000).toISOString(),
          },
        };
      },
    },
  },
});
