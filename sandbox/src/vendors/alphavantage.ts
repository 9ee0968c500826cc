// Alpha Vantage stand-in (`apikey` query parameter): GET /query?function=GLOBAL_QUOTE&symbol= →
// {"Global Quote": {"01. symbol", "02. open", ..., "10. change percent"}}, every value a string. Like
// the real API it answers 200 even for errors: {"Error Message": ...} for a bad call or key, and an
// empty "Global Quote" for an unknown symbol. Quotes are fixed per symbol.
import type { SandboxVendor, VendorDefinition, VendorOptions, VendorReply, VendorRequest } from "../http/vendor";

const errorMessage = (message: string): VendorReply => ({ status: 200, body: { "Error Message": message } });

interface Quote {
  open: number;
  high: number;
  low: number;
  price: number;
  volume: number;
  previousClose: number;
}

const QUOTES: Readonly<Record<string, Quote>> = {
  IBM: { open: 221.1, high: 224.35, low: 220.5, price: 223.67, volume: 3_481_220, previousClose: 221.02 },
  AAPL: { open: 228.4, high: 231.2, low: 227.85, price: 230.54, volume: 48_021_377, previousClose: 229.0 },
  MSFT: { open: 415.2, high: 419.9, low: 414.01, price: 417.85, volume: 17_990_118, previousClose: 418.1 },
  "SHOP.TRT": { open: 101.5, high: 104.2, low: 100.9, price: 103.88, volume: 1_204_455, previousClose: 101.35 },
};

/** The fixed latest trading day of every quote. */
const TRADING_DAY = "2026-01-15";

export function alphavantageVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "alphavantage",
    price: { amountAtomic: priceAtomic, description: "Alpha Vantage quote" },
    authenticate: (req) =>
      req.query.apikey === apiKey
        ? undefined
        : errorMessage(
            "the parameter apikey is invalid or missing. Please claim your free API key on (https://www.alphavantage.co/support/#api-key).",
          ),
    errorReply: (status, message) => ({ status, body: { "Error Message": message } }),
    routes: [{ method: "GET", path: "/query", handle: query }],
  };
}

function query(req: VendorRequest): VendorReply {
  if (req.query.function !== "GLOBAL_QUOTE") return errorMessage("This API function (" + (req.query.function ?? "") + ") does not exist.");
  const symbol = (req.query.symbol ?? "").trim().toUpperCase();
  if (!symbol)
    return errorMessage(
      "Invalid API call. Please retry or visit the documentation (https://www.alphavantage.co/documentation/) for GLOBAL_QUOTE.",
    );
  const q = QUOTES[symbol];
  if (!q) return { status: 200, body: { "Global Quote": {} } };
  const change = q.price - q.previousClose;
  const f = (n: number) => n.toFixed(4);
  return {
    status: 200,
    body: {
      "Global Quote": {
        "01. symbol": symbol,
        "02. open": f(q.open),
        "03. high": f(q.high),
        "04. low": f(q.low),
        "05. price": f(q.price),
        "06. volume": String(q.volume),
        "07. latest trading day": TRADING_DAY,
        "08. previous close": f(q.previousClose),
        "09. change": f(change),
        "10. change percent": `${((change / q.previousClose) * 100).toFixed(4)}%`,
      },
    },
  };
}

export const alphavantageSandbox = {
  key: "alphavantage",
  apiKey: "alphavantage-sandbox-key",
  priceAtomic: "1000",
  create: alphavantageVendor,
} as const satisfies SandboxVendor;
