// Amadeus Self-Service stand-in. Its API key is `<client_id>:<client_secret>`, traded for a bearer token:
// POST /v1/security/oauth2/token (form-encoded grant_type=client_credentials&client_id&client_secret) →
// {token_type: "Bearer", access_token, expires_in: 1799}; token errors {error, error_description, code,
// title}. With `Authorization: Bearer <token>`:
// - GET /v2/shopping/flight-offers?originLocationCode&destinationLocationCode&departureDate&returnDate?
//   &adults&travelClass?&max → {meta: {count}, data: [flight-offer], dictionaries: {carriers}};
// - GET /v1/reference-data/locations/hotels/by-city?cityCode → {data: [{hotelId, name, iataCode, geoCode}]}
//   (none for city ZZZ);
// - GET /v3/shopping/hotel-offers?hotelIds&adults&checkInDate&checkOutDate → {data: [{type: "hotel-offers",
//   hotel, available, offers: [{id, checkInDate, checkOutDate, room, guests, price}]}]}.
// Errors {errors: [{status, code, title, detail, source}]} as Amadeus answers them. Answers are derived
// deterministically from the query; dates are checked against the vendor clock.
import { createHash, randomBytes } from "node:crypto";
import {
  authToken,
  isObject,
  type SandboxVendor,
  type VendorContext,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

const JSON_TYPE = "application/vnd.amadeus+json";
const TOKEN_PATH = "/v1/security/oauth2/token";
const TOKEN_LIFE_S = 1799;
const IATA = /^[A-Z]{3}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TRAVEL_CLASSES = new Set(["ECONOMY", "PREMIUM_ECONOMY", "BUSINESS", "FIRST"]);
const CLASS_FACTOR: Readonly<Record<string, number>> = { ECONOMY: 1, PREMIUM_ECONOMY: 1.7, BUSINESS: 3.4, FIRST: 5.5 };
const CARRIERS: Readonly<Record<string, string>> = { TP: "TAP PORTUGAL", BA: "BRITISH AIRWAYS", IB: "IBERIA" };
/** A city the stand-in knows no hotel in. */
const EMPTY_CITY = "ZZZ";

function errors(status: number, code: number, title: string, detail: string, parameter?: string): VendorReply {
  return {
    status,
    contentType: JSON_TYPE,
    body: { errors: [{ status, code, title, detail, ...(parameter ? { source: { parameter } } : {}) }] },
  };
}

const tokenError = (status: number, error: string, description: string): VendorReply => ({
  status,
  body: { error, error_description: description, code: 38187, title: "Invalid parameters" },
});

/** A number from 0 to 1 derived from `parts`, so the same query gets the same answer. */
function unit(...parts: string[]): number {
  return createHash("sha256").update(parts.join("|")).digest().readUInt32BE(0) / 0xffffffff;
}

export function amadeusVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  const [clientId, clientSecret] = [apiKey.slice(0, apiKey.indexOf(":")), apiKey.slice(apiKey.indexOf(":") + 1)];
  const tokens = new Map<string, number>();
  return {
    key: "amadeus",
    price: { amountAtomic: priceAtomic, description: "Amadeus Self-Service call" },
    authenticate: (req) => {
      if (req.path.toLowerCase() === TOKEN_PATH) return undefined; // the token request carries the credentials itself
      const expiresAt = tokens.get(authToken(req, "Bearer") ?? "");
      if (expiresAt === undefined || expiresAt <= Date.now())
        return errors(401, 38192, "Invalid access token", "The access token provided in the Authorization header is invalid");
      return undefined;
    },
    errorReply: (status, message) =>
      errors(status, status >= 500 ? 141 : 4926, status >= 500 ? "SYSTEM ERROR HAS OCCURRED" : "INVALID DATA RECEIVED", message),
    routes: [
      {
        method: "POST",
        path: TOKEN_PATH,
        priceAtomic: "1000",
        handle: (req) => {
          const b = isObject(req.body) ? req.body : {};
          if (b.grant_type !== "client_credentials")
            return tokenError(400, "unsupported_grant_type", "Only client_credentials value is allowed for the body parameter grant_type");
          if (b.client_id !== clientId || b.client_secret !== clientSecret)
            return tokenError(401, "invalid_client", "Client credentials are invalid");
          const token = randomBytes(21).toString("base64url");
          tokens.set(token, Date.now() + TOKEN_LIFE_S * 1000);
          return {
            status: 200,
            body: {
              type: "amadeusOAuth2Token",
              username: "sandbox@agentic.dev",
              application_name: "agentic-sandbox",
              client_id: clientId,
              token_type: "Bearer",
              access_token: token,
              expires_in: TOKEN_LIFE_S,
              state: "approved",
              scope: "",
            },
          };
        },
      },
      { method: "GET", path: "/v2/shopping/flight-offers", handle: flightOffers },
      { method: "GET", path: "/v1/reference-data/locations/hotels/by-city", handle: hotelsByCity },
      { method: "GET", path: "/v3/shopping/hotel-offers", handle: hotelOffers },
    ],
  };
}

/** The first problem of a query parameter that must be present and match, as Amadeus words it. */
function missing(q: Readonly<Record<string, string>>, names: string[]): VendorReply | undefined {
  const name = names.find((n) => !q[n]);
  return name ? errors(400, 32171, "MANDATORY DATA MISSING", "This field must be filled.", name) : undefined;
}

/** A YYYY-MM-DD date not before the vendor's today, or the error Amadeus answers. */
function day(q: Readonly<Record<string, string>>, name: string, ctx: VendorContext): VendorReply | undefined {
  const value = q[name] ?? "";
  if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    return errors(400, 477, "INVALID FORMAT", "Invalid date format, expected YYYY-MM-DD", name);
  if (value < ctx.now().toISOString().slice(0, 10)) return errors(400, 425, "INVALID DATE", "Date/Time is in the past", name);
  return undefined;
}

function adultsOf(q: Readonly<Record<string, string>>): number | VendorReply {
  const adults = Number(q.adults ?? "1");
  if (!Number.isInteger(adults) || adults < 1 || adults > 9)
    return errors(400, 477, "INVALID FORMAT", "adults must be an integer from 1 to 9", "adults");
  return adults;
}

function flightOffers(req: VendorRequest, ctx: VendorContext): VendorReply {
  const q = req.query;
  const problem =
    missing(q, ["originLocationCode", "destinationLocationCode", "departureDate", "adults"]) ??
    (!IATA.test(q.originLocationCode!) ? errors(400, 477, "INVALID FORMAT", "Invalid IATA code", "originLocationCode") : undefined) ??
    (!IATA.test(q.destinationLocationCode!)
      ? errors(400, 477, "INVALID FORMAT", "Invalid IATA code", "destinationLocationCode")
      : undefined) ??
    day(q, "departureDate", ctx) ??
    (q.returnDate !== undefined ? day(q, "returnDate", ctx) : undefined) ??
    (q.travelClass !== undefined && !TRAVEL_CLASSES.has(q.travelClass)
      ? errors(400, 477, "INVALID FORMAT", "travelClass must be ECONOMY, PREMIUM_ECONOMY, BUSINESS or FIRST", "travelClass")
      : undefined);
  if (problem) return problem;
  const adults = adultsOf(q);
  if (typeof adults !== "number") return adults;
  const max = Number(q.max ?? "250");
  const from = q.originLocationCode!;
  const to = q.destinationLocationCode!;
  const legs: Array<[string, string, string]> = [
    [from, to, q.departureDate!],
    ...(q.returnDate ? [[to, from, q.returnDate] as [string, string, string]] : []),
  ];
  const data = Object.keys(CARRIERS).map((carrier, i) => {
    const base =
      Math.round(
        (60 + unit(from, to, q.departureDate!, carrier) * 240) *
          (CLASS_FACTOR[q.travelClass ?? "ECONOMY"] ?? 1) *
          legs.length *
          adults *
          100,
      ) / 100;
    const total = (base * 1.18).toFixed(2);
    return {
      type: "flight-offer",
      id: String(i + 1),
      source: "GDS",
      lastTicketingDate: q.departureDate,
      numberOfBookableSeats: 9,
      itineraries: legs.map(([o, d, date], leg) => {
        const hour = 6 + Math.floor(unit(o, d, date, carrier) * 12);
        const at = (h: number) => `${date}T${String(h).padStart(2, "0")}:${leg === 0 ? "05" : "35"}:00`;
        return {
          duration: "PT2H30M",
          segments: [
            {
              departure: { iataCode: o, at: at(hour) },
              arrival: { iataCode: d, at: at(hour + 2) },
              carrierCode: carrier,
              number: String(100 + Math.floor(unit(carrier, o, d) * 800)),
              duration: "PT2H30M",
              numberOfStops: 0,
            },
          ],
        };
      }),
      price: { currency: "EUR", total, base: base.toFixed(2), grandTotal: total },
      validatingAirlineCodes: [carrier],
    };
  });
  const offers = data.slice(0, Number.isInteger(max) && max > 0 ? max : data.length);
  return {
    status: 200,
    contentType: JSON_TYPE,
    body: { meta: { count: offers.length }, data: offers, dictionaries: { carriers: CARRIERS } },
  };
}

function hotelsByCity(req: VendorRequest): VendorReply {
  const city = req.query.cityCode ?? "";
  if (!city) return errors(400, 32171, "MANDATORY DATA MISSING", "This field must be filled.", "cityCode");
  if (!IATA.test(city)) return errors(400, 477, "INVALID FORMAT", "Invalid IATA city code", "cityCode");
  const data =
    city === EMPTY_CITY
      ? []
      : ["HL", "RT", "MC"].map((chain, i) => ({
          chainCode: chain,
          iataCode: city,
          dupeId: 700000000 + i,
          name: `${chain === "HL" ? "HILTON" : chain === "RT" ? "NOVOTEL" : "MARRIOTT"} ${city} CENTRE`,
          hotelId: `${chain}${city}${String(100 + i)}`,
          geoCode: { latitude: 48.85 + i / 100, longitude: 2.35 + i / 100 },
          address: { countryCode: "FR" },
        }));
  return { status: 200, contentType: JSON_TYPE, body: { data, meta: { count: data.length } } };
}

function hotelOffers(req: VendorRequest, ctx: VendorContext): VendorReply {
  const q = req.query;
  const problem = missing(q, ["hotelIds"]) ?? day(q, "checkInDate", ctx) ?? day(q, "checkOutDate", ctx);
  if (problem) return problem;
  const adults = adultsOf(q);
  if (typeof adults !== "number") return adults;
  const nights = (Date.parse(q.checkOutDate!) - Date.parse(q.checkInDate!)) / 86_400_000;
  if (nights < 1) return errors(400, 381, "INVALID CHECK-OUT DATE", "Check-out date must be after check-in date", "checkOutDate");
  const data = q.hotelIds!.split(",").map((hotelId) => {
    const city = hotelId.slice(2, 5);
    const nightly = 80 + Math.round(unit(hotelId, q.checkInDate!) * 220);
    return {
      type: "hotel-offers",
      hotel: {
        type: "hotel",
        hotelId,
        chainCode: hotelId.slice(0, 2),
        name: `HOTEL ${hotelId}`,
        cityCode: city,
        latitude: 48.85,
        longitude: 2.35,
      },
      available: true,
      offers: ["STANDARD_ROOM", "SUPERIOR_ROOM"].map((category, i) => {
        const base = nightly * (1 + i * 0.4) * nights * (1 + (adults - 1) * 0.2);
        return {
          id: createHash("sha256").update(`${hotelId}|${q.checkInDate}|${i}`).digest("hex").slice(0, 10).toUpperCase(),
          checkInDate: q.checkInDate,
          checkOutDate: q.checkOutDate,
          rateCode: "RAC",
          room: {
            type: i === 0 ? "A2K" : "B2T",
            typeEstimated: { category, beds: 1, bedType: i === 0 ? "KING" : "TWIN" },
            description: {
              text: `${category.replace("_", " ")} with ${i === 0 ? "one king" : "two twin"} bed${i === 0 ? "" : "s"}`,
              lang: "EN",
            },
          },
          guests: { adults },
          price: { currency: "EUR", base: base.toFixed(2), total: (base * 1.1).toFixed(2) },
        };
      }),
    };
  });
  return { status: 200, contentType: JSON_TYPE, body: { data } };
}

export const amadeusSandbox = {
  key: "amadeus",
  apiKey: "amadeus-sandbox-client:amadeus-sandbox-secret",
  priceAtomic: "30000",
  create: amadeusVendor,
} as const satisfies SandboxVendor;
