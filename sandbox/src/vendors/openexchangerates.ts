// Open Exchange Rates stand-in (`Authorization: Token <app id>` or `?app_id=`): GET /api/latest.json and
// /api/historical/<YYYY-MM-DD>.json with `base` and `symbols` → {disclaimer, license, timestamp, base,
// rates}; errors {error: true, status, message, description} as the API answers them. Rates are fixed
// per day (a small deterministic drift by date), so answers are reproducible.
import {
  authToken,
  type SandboxVendor,
  type VendorContext,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

function error(status: number, message: string, description: string): VendorReply {
  return { status, body: { error: true, status, message, description } };
}

/** Units per US dollar on the reference day. */
const PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.921345,
  GBP: 0.787123,
  JPY: 151.6205,
  CHF: 0.883412,
  CAD: 1.365521,
  AUD: 1.512034,
  BRL: 5.10455,
  INR: 83.41205,
  CNY: 7.23315,
  BTC: 0.0000148837,
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const FIRST_DAY = "1999-01-01";

export function openexchangeratesVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "openexchangerates",
    price: { amountAtomic: priceAtomic, description: "Open Exchange Rates lookup" },
    authenticate: (req) => {
      const given = authToken(req, "Token") ?? req.query.app_id;
      if (!given) return error(401, "missing_app_id", "No App ID provided. Please sign up at https://openexchangerates.org/signup.");
      return given === apiKey
        ? undefined
        : error(401, "invalid_app_id", "Invalid App ID provided. Please sign up at https://openexchangerates.org/signup.");
    },
    errorReply: (status, message) => error(status, status >= 500 ? "internal_error" : "bad_request", message),
    routes: [
      { method: "GET", path: "/api/latest.json", handle: (req, ctx) => rates(req, ctx.now()) },
      { method: "GET", path: "/api/historical/:file", handle: historical },
    ],
  };
}

function historical(req: VendorRequest, ctx: VendorContext): VendorReply {
  const day = /^(.*)\.json$/i.exec(req.params.file ?? "")?.[1] ?? "";
  const m = DAY.exec(day);
  const at = m ? new Date(`${day}T23:59:59Z`) : undefined;
  if (!m || !at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day)
    return error(400, "invalid_date", "Invalid date supplied. Please use the format YYYY-MM-DD.");
  if (day < FIRST_DAY || at.getTime() > ctx.now().getTime() + 86_400_000)
    return error(400, "date_not_available", `Historical rates are available from ${FIRST_DAY} until today.`);
  return rates(req, at);
}

function rates(req: VendorRequest, at: Date): VendorReply {
  const base = (req.query.base ?? "USD").toUpperCase();
  const basePerUsd = PER_USD[base];
  if (basePerUsd === undefined) return error(400, "invalid_base", "Client requested an invalid or unsupported base currency.");
  const wanted = req.query.symbols ? req.query.symbols.split(",").map((s) => s.trim().toUpperCase()) : Object.keys(PER_USD);
  // A tiny deterministic drift per day so historical and latest rates differ.
  const drift = 1 + ((Math.floor(at.getTime() / 86_400_000) % 7) - 3) / 1000;
  const out: Record<string, number> = {};
  for (const code of wanted) {
    const perUsd = PER_USD[code];
    if (perUsd === undefined) continue;
    out[code] = code === base ? 1 : Number(((perUsd / basePerUsd) * drift).toPrecision(7));
  }
  return {
    status: 200,
    body: {
      disclaimer: "Usage subject to terms: https://openexchangerates.org/terms",
      license: "https://openexchangerates.org/license",
      timestamp: Math.floor(at.getTime() / 1000),
      base,
      rates: out,
    },
  };
}

export const openexchangeratesSandbox = {
  key: "openexchangerates",
  apiKey: "oxr-sandbox-app-id",
  priceAtomic: "1000",
  create: openexchangeratesVendor,
} as const satisfies SandboxVendor;
