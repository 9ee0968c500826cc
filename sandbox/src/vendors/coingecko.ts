// CoinGecko Pro API stand-in (`x-cg-pro-api-key`): GET /api/v3/simple/price?ids=|symbols=&vs_currencies=
// [&include_market_cap&include_24hr_change&include_last_updated_at] → {<coin id>: {<vs>: price, <vs>_market_cap,
// <vs>_24h_change, last_updated_at}}; an unknown coin is simply absent (200 {}). Errors are
// {status: {error_code, error_message}} as the Pro API answers them. Prices are fixed per coin.
import {
  header,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

function error(status: number, code: number, message: string): VendorReply {
  return { status, body: { status: { error_code: code, error_message: message } } };
}

interface Coin {
  id: string;
  symbol: string;
  usd: number;
  marketCapUsd: number;
  change24h: number;
}

const COINS: readonly Coin[] = [
  { id: "bitcoin", symbol: "btc", usd: 67187.33, marketCapUsd: 1_322_004_211_512.4, change24h: 1.8421 },
  { id: "ethereum", symbol: "eth", usd: 3481.52, marketCapUsd: 418_337_902_611.9, change24h: -0.7312 },
  { id: "solana", symbol: "sol", usd: 171.04, marketCapUsd: 79_112_554_301.2, change24h: 3.0157 },
  { id: "usd-coin", symbol: "usdc", usd: 1.0001, marketCapUsd: 34_550_114_902.7, change24h: 0.0102 },
];

/** Units of each vs currency per US dollar (fixed, so answers are deterministic). */
const PER_USD: Readonly<Record<string, number>> = { usd: 1, eur: 0.9213, gbp: 0.7871, jpy: 151.62, chf: 0.8834, btc: 1 / 67187.33 };

/** Fixed "last updated" instant of every price: 2026-01-15T12:00:00Z. */
const LAST_UPDATED_AT = 1768478400;

export function coingeckoVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "coingecko",
    price: { amountAtomic: priceAtomic, description: "CoinGecko simple price" },
    authenticate: (req) =>
      header(req, "x-cg-pro-api-key") === apiKey
        ? undefined
        : error(401, 10002, "API Key Missing or invalid. Please provide a valid Pro API key."),
    errorReply: (status, message) => error(status, status, message),
    routes: [{ method: "GET", path: "/api/v3/simple/price", handle: simplePrice }],
  };
}

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);

function simplePrice(req: VendorRequest): VendorReply {
  const vs = list(req.query.vs_currencies);
  if (vs.length === 0) return error(400, 400, "Missing parameter vs_currencies");
  const unknownVs = vs.find((v) => PER_USD[v] === undefined);
  if (unknownVs) return error(400, 400, `invalid vs_currency: ${unknownVs}`);
  const ids = list(req.query.ids);
  const symbols = list(req.query.symbols);
  if (ids.length === 0 && symbols.length === 0) return error(400, 400, "Missing parameter ids or symbols");
  // ids win over symbols, as the API documents.
  const coins = ids.length > 0 ? COINS.filter((c) => ids.includes(c.id)) : COINS.filter((c) => symbols.includes(c.symbol));
  const flag = (name: string) => req.query[name] === "true";
  const body: Record<string, Record<string, number>> = {};
  for (const coin of coins) {
    const entry: Record<string, number> = {};
    for (const v of vs) {
      const rate = PER_USD[v] as number;
      entry[v] = Number((coin.usd * rate).toPrecision(8));
      if (flag("include_market_cap")) entry[`${v}_market_cap`] = Number((coin.marketCapUsd * rate).toFixed(2));
      if (flag("include_24hr_change")) entry[`${v}_24h_change`] = coin.change24h;
    }
    if (flag("include_last_updated_at")) entry.last_updated_at = LAST_UPDATED_AT;
    body[ids.length > 0 ? coin.id : coin.symbol] = entry;
  }
  return { status: 200, body };
}

export const coingeckoSandbox = {
  key: "coingecko",
  apiKey: "coingecko-sandbox-key",
  priceAtomic: "1000",
  create: coingeckoVendor,
} as const satisfies SandboxVendor;
