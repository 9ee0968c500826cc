// Open Exchange Rates (finance.fx.rate): GET /api/latest.json, or /api/historical/<date>.json for a past
// day, with `base` and `symbols` (`Authorization: Token <app id>` on direct routes) → {timestamp, base,
// rates: {<code>: rate}}. A quote currency the vendor does not list is absent from the rates: a 404
// blamed on the input. Errors are {error: true, status, message, description}.
import type { ProviderHttpRequest } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "openexchangerates";

const CURRENCY = /^[A-Za-z]{3}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function pair(input: CapabilityInput, providerKey: string): { base: string; quote: string; date?: string } {
  const read = new InputReader(providerKey, input);
  const [base, quote] = (["base", "quote"] as const).map((field) => {
    const code = read.string(field, true).trim();
    if (!CURRENCY.test(code)) throw inputRefusal(providerKey, `\`${field}\` must be an ISO 4217 code, e.g. EUR`, field);
    return code.toUpperCase();
  }) as [string, string];
  const date = read.string("date")?.trim();
  if (date !== undefined && !DAY.test(date)) throw inputRefusal(providerKey, "`date` must be YYYY-MM-DD", "date");
  return { base, quote, ...(date ? { date } : {}) };
}

export const openexchangeratesProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://openexchangerates.org" },
  capabilities: {
    "finance.fx.rate": {
      request(input, ctx): ProviderHttpRequest {
        const { base, quote, date } = pair(input, KEY);
        const path = date ? `/api/historical/${date}.json` : "/api/latest.json";
        return {
          method: "GET",
          url: `${ctx.baseUrl}${path}?${new URLSearchParams({ base, symbols: quote }).toString()}`,
          headers: ourKeyAs(ctx, "authorization", "Token "),
        };
      },
      parse(res, input) {
        if (res.status !== 200)
          throw vendorError(KEY, res, { code: stringField(res.body, "message"), message: stringField(res.body, "description") });
        const b = res.body;
        if (!isRecord(b) || !isRecord(b.rates) || typeof b.timestamp !== "number")
          throw invalidResponse(KEY, res, "without rates and timestamp");
        const { base, quote, date } = pair(input, KEY);
        const rate = b.rates[quote];
        if (rate === undefined)
          throw vendorError(KEY, { ...res, status: 404 }, { code: "currency_not_found", message: `no ${quote} rate` });
        if (typeof rate !== "number") throw invalidResponse(KEY, res, `with a non-numeric ${quote} rate`);
        const asOf = new Date(b.timestamp * 1000).toISOString();
        return {
          status: "completed",
          data: { base: stringField(b, "base") ?? base, quote, rate, date: date ?? asOf.slice(0, 10), asOf },
        };
      },
    },
  },
});
