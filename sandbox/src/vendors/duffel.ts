// Duffel stand-in (`Authorization: Bearer`, `Duffel-Version: v2`): POST /air/offer_requests?return_offers=true
// {data: {slices: [{origin, destination, departure_date}], passengers: [{type}], cabin_class}} → 201
// {data: {id, offers: [{id, total_amount, total_currency, owner, slices: [{origin, destination, duration,
// segments}]}]}}. Errors {meta: {status, request_id}, errors: [{type, code, title, message, source}]} as
// Duffel answers them. Offers are derived deterministically from the route and date (three airlines).
import { createHash, randomUUID } from "node:crypto";
import {
  authToken,
  header,
  isObject,
  type SandboxVendor,
  type VendorContext,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

function errors(status: number, type: string, code: string, message: string, field?: string): VendorReply {
  return {
    status,
    body: {
      meta: { status, request_id: randomUUID().replace(/-/g, "").slice(0, 20) },
      errors: [
        {
          type,
          code,
          title: message,
          message,
          documentation_url: `https://duffel.com/docs/api/overview/errors`,
          ...(field ? { source: { field, pointer: `/data/${field}` } } : {}),
        },
      ],
    },
  };
}

const IATA = /^[A-Z]{3}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CABINS = new Set(["economy", "premium_economy", "business", "first"]);
const CABIN_FACTOR: Readonly<Record<string, number>> = { economy: 1, premium_economy: 1.8, business: 3.6, first: 6 };
const AIRLINES = [
  { iata_code: "TP", name: "TAP Air Portugal" },
  { iata_code: "BA", name: "British Airways" },
  { iata_code: "ZZ", name: "Duffel Airways" },
];

export function duffelVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "duffel",
    price: { amountAtomic: priceAtomic, description: "Duffel offer request" },
    authenticate: (req) => {
      if (authToken(req, "Bearer") !== apiKey)
        return errors(401, "authentication_error", "invalid_authentication", "The access token used is not valid.");
      if (!header(req, "duffel-version"))
        return errors(400, "invalid_request_error", "unsupported_version", "Duffel-Version header is required.");
      return undefined;
    },
    errorReply: (status, message) =>
      errors(
        status,
        status >= 500 ? "api_error" : "invalid_request_error",
        status === 429 ? "rate_limit_exceeded" : status >= 500 ? "internal_server_error" : "invalid_request",
        message,
      ),
    routes: [{ method: "POST", path: "/air/offer_requests", handle: offerRequest }],
  };
}

function offerRequest(req: VendorRequest, ctx: VendorContext): VendorReply {
  const data = isObject(req.body) ? req.body.data : undefined;
  if (!isObject(data)) return errors(422, "validation_error", "invalid_parameter", "data is required", "data");
  const slices = Array.isArray(data.slices) ? data.slices : [];
  if (slices.length === 0 || slices.length > 2)
    return errors(422, "validation_error", "invalid_parameter", "slices must contain 1 or 2 slices", "slices");
  const today = ctx.now().toISOString().slice(0, 10);
  for (const slice of slices) {
    if (
      !isObject(slice) ||
      typeof slice.origin !== "string" ||
      !IATA.test(slice.origin) ||
      typeof slice.destination !== "string" ||
      !IATA.test(slice.destination)
    )
      return errors(422, "validation_error", "invalid_parameter", "origin and destination must be IATA codes", "slices");
    if (typeof slice.departure_date !== "string" || !DAY.test(slice.departure_date) || Number.isNaN(Date.parse(slice.departure_date)))
      return errors(422, "validation_error", "invalid_parameter", "departure_date must be a date (YYYY-MM-DD)", "slices");
    if (slice.departure_date < today)
      return errors(422, "validation_error", "departure_date_in_the_past", "departure_date must be in the future", "slices");
  }
  const passengers = Array.isArray(data.passengers) ? data.passengers : [];
  if (
    passengers.length === 0 ||
    passengers.length > 9 ||
    !passengers.every((p) => isObject(p) && (p.type === "adult" || typeof p.age === "number"))
  )
    return errors(422, "validation_error", "invalid_parameter", "passengers must list 1 to 9 passengers with a type or age", "passengers");
  const cabin = data.cabin_class ?? "economy";
  if (typeof cabin !== "string" || !CABINS.has(cabin))
    return errors(422, "validation_error", "invalid_parameter", "cabin_class is invalid", "cabin_class");
  const requestId = `orq_${digest(JSON.stringify(data)).slice(0, 22)}`;
  const passengerList = passengers.map((_, i) => ({ id: `pas_${digest(requestId + i).slice(0, 22)}`, type: "adult" }));
  const offers = AIRLINES.map((owner, i) => {
    const offerSlices = (slices as Array<Record<string, string>>).map((s, j) => sliceOf(owner, s, i, j));
    const base = offerSlices.reduce((sum, s) => sum + s.fare, 0) * CABIN_FACTOR[cabin]! * passengers.length;
    const tax = Math.round(base * 0.18 * 100) / 100;
    return {
      id: `off_${digest(requestId + owner.iata_code).slice(0, 22)}`,
      live_mode: false,
      expires_at: new Date(ctx.now().getTime() + 30 * 60_000).toISOString(),
      total_amount: (base + tax).toFixed(2),
      total_currency: "EUR",
      base_amount: base.toFixed(2),
      tax_amount: tax.toFixed(2),
      owner,
      slices: offerSlices.map(({ fare: _fare, ...s }) => s),
      passengers: passengerList,
    };
  });
  return {
    status: 201,
    body: {
      data: {
        id: requestId,
        live_mode: false,
        cabin_class: cabin,
        created_at: ctx.now().toISOString(),
        slices,
        passengers: passengerList,
        offers,
      },
    },
  };
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** One slice of an offer: a direct flight for the first airline, one stop (via LHR or MAD) for the others. */
function sliceOf(owner: { iata_code: string; name: string }, s: Record<string, string>, airline: number, index: number) {
  const seed = parseInt(digest(`${s.origin}${s.destination}${s.departure_date}${owner.iata_code}`).slice(0, 8), 16);
  const departHour = 6 + (seed % 12);
  const legMinutes = 90 + (seed % 150);
  const depart = new Date(`${s.departure_date}T${String(departHour).padStart(2, "0")}:${airline === 0 ? "05" : "40"}:00Z`);
  const via = s.origin === "LHR" || s.destination === "LHR" ? "MAD" : "LHR";
  const stops = airline === 0 ? [s.origin, s.destination] : [s.origin, via, s.destination];
  let at = depart.getTime();
  const segments = stops.slice(1).map((to, k) => {
    const departing = new Date(at);
    const arriving = new Date(at + legMinutes * 60_000);
    at = arriving.getTime() + 75 * 60_000;
    return {
      id: `seg_${digest(`${seed}${index}${k}`).slice(0, 22)}`,
      origin: { iata_code: stops[k] },
      destination: { iata_code: to },
      departing_at: departing.toISOString().slice(0, 19),
      arriving_at: arriving.toISOString().slice(0, 19),
      duration: `PT${Math.floor(legMinutes / 60)}H${legMinutes % 60}M`,
      marketing_carrier: owner,
      marketing_carrier_flight_number: String(100 + (seed % 800) + k),
      operating_carrier: owner,
    };
  });
  const total = Math.round((at - 75 * 60_000 - depart.getTime()) / 60_000);
  return {
    fare: 60 + (seed % 240) + airline * 15,
    origin: { iata_code: s.origin },
    destination: { iata_code: s.destination },
    duration: `PT${Math.floor(total / 60)}H${total % 60}M`,
    segments,
  };
}

export const duffelSandbox = {
  key: "duffel",
  apiKey: "duffel_test_sandbox-token",
  priceAtomic: "5000",
  create: duffelVendor,
} as const satisfies SandboxVendor;
