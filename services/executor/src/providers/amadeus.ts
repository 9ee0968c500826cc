// Amadeus Self-Service (travel.flights.search, travel.hotels.search), direct routes only: every call first
// takes an OAuth2 client-credentials token (POST /v1/security/oauth2/token, kept until shortly before it
// expires; see oauth-client-credentials.ts), so both capabilities are flows of several requests.
// Our configured key is `<client_id>:<client_secret>` (AMADEUS_API_KEY).
// - flights: GET /v2/shopping/flight-offers?originLocationCode&destinationLocationCode&departureDate
//   &returnDate?&adults&travelClass?&max=20 → {data: [{id, itineraries[{duration, segments}], price:
//   {currency, total, base, grandTotal}, validatingAirlineCodes}], dictionaries: {carriers}}; normalized
//   as Duffel's offers are, cheapest first.
// - hotels: GET /v1/reference-data/locations/hotels/by-city?cityCode → {data: [{hotelId, name}]}, then
//   GET /v3/shopping/hotel-offers?hotelIds (the first 20)&adults&checkInDate&checkOutDate → {data:
//   [{hotel, available, offers[{id, room, guests, price}]}]}. Two billed calls, which the route's price covers.
// Every request is a read, so a failure at any step makes Amadeus act on nothing: the usual fallback rules
// apply. A token refused before its time (401) is renewed once. Errors: {errors: [{status, code, title,
// detail, source}]}.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import { ProviderError, type CapabilityInput, type ProviderContext, type VendorCalls } from "../domain/provider-port";
import { ClientCredentialsTokens, type ClientCredentials } from "./oauth-client-credentials";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider, type CapabilityTable } from "./provider-table";

const KEY = "amadeus";

const MAX_OFFERS = 20;
/** Hotels asked for offers per search: Amadeus takes a list of ids in the query; the first of the city's list. */
const MAX_HOTELS = 20;
/** Amadeus' "no rooms available at requested property": no offer, not an error. */
const NO_ROOMS = "3664";
const TRAVEL_CLASS: Readonly<Record<string, string>> = {
  economy: "ECONOMY",
  premium_economy: "PREMIUM_ECONOMY",
  business: "BUSINESS",
  first: "FIRST",
};

type Json = Record<string, unknown>;
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);

function offer(res: RailResponse, o: Json, carriers: Json) {
  const price = isRecord(o.price) ? o.price : undefined;
  const total = stringField(price, "grandTotal") ?? stringField(price, "total");
  const currency = stringField(price, "currency");
  if (!total || !currency || !Array.isArray(o.itineraries)) throw invalidResponse(KEY, res, "with an offer without a price or itineraries");
  const airline =
    Array.isArray(o.validatingAirlineCodes) && typeof o.validatingAirlineCodes[0] === "string" ? o.validatingAirlineCodes[0] : null;
  return {
    id: stringField(o, "id") ?? null,
    totalAmount: total,
    currency,
    baseAmount: stringField(price, "base") ?? null,
    taxAmount: null,
    airline: { code: airline, name: (airline && stringField(carriers, airline)) ?? null },
    expiresAt: stringField(o, "lastTicketingDate") ?? null,
    slices: records(o.itineraries).map((it) => {
      const segments = records(it.segments);
      return {
        origin: stringField(segments[0]?.departure, "iataCode") ?? null,
        destination: stringField(segments.at(-1)?.arrival, "iataCode") ?? null,
        duration: stringField(it, "duration") ?? null,
        stops: Math.max(segments.length - 1, 0),
        segments: segments.map((g) => ({
          carrier: stringField(g, "carrierCode") ?? null,
          flightNumber: stringField(g, "number") ?? null,
          origin: stringField(g.departure, "iataCode") ?? null,
          destination: stringField(g.arrival, "iataCode") ?? null,
          departureAt: stringField(g.departure, "at") ?? null,
          arrivalAt: stringField(g.arrival, "at") ?? null,
        })),
      };
    }),
  };
}

function hotel(res: RailResponse, h: Json) {
  const hotel = h.hotel as Json;
  const hotelId = stringField(hotel, "hotelId");
  if (!hotelId) throw invalidResponse(KEY, res, "with a hotel without hotelId");
  return {
    hotelId,
    name: stringField(hotel, "name") ?? null,
    cityCode: stringField(hotel, "cityCode") ?? null,
    latitude: typeof hotel.latitude === "number" ? hotel.latitude : null,
    longitude: typeof hotel.longitude === "number" ? hotel.longitude : null,
    offers: records(h.offers).map((o) => {
      const price = isRecord(o.price) ? o.price : undefined;
      const total = stringField(price, "total");
      const currency = stringField(price, "currency");
      if (!total || !currency) throw invalidResponse(KEY, res, "with a hotel offer without a price");
      const room = isRecord(o.room) ? o.room : {};
      return {
        id: stringField(o, "id") ?? null,
        checkInDate: stringField(o, "checkInDate") ?? null,
        checkOutDate: stringField(o, "checkOutDate") ?? null,
        roomType: stringField(room.typeEstimated, "category") ?? stringField(room, "type") ?? null,
        description: stringField(room.description, "text") ?? null,
        adults: isRecord(o.guests) && typeof o.guests.adults === "number" ? o.guests.adults : null,
        totalAmount: total,
        baseAmount: stringField(price, "base") ?? null,
        currency,
      };
    }),
  };
}

/** `<client_id>:<client_secret>` from our configured key; anything else is a deployment error. */
function credentials(ctx: ProviderContext): ClientCredentials {
  const key = ctx.credentials?.apiKey ?? "";
  const colon = key.indexOf(":");
  if (colon <= 0 || colon === key.length - 1)
    throw new ProviderError("unsupported_capability", KEY, "AMADEUS_API_KEY must be <client_id>:<client_secret>");
  return { clientId: key.slice(0, colon), clientSecret: key.slice(colon + 1) };
}

function amadeusError(res: RailResponse): ProviderError {
  const first = isRecord(res.body) ? records(res.body.errors)[0] : undefined;
  const code = first?.code;
  return vendorError(KEY, res, {
    ...(code !== undefined ? { code: String(code) } : {}),
    message: [stringField(first, "title"), stringField(first, "detail")].filter(Boolean).join(": ") || undefined,
  });
}

/** The flights search (without its token): checks the input when the route is planned. */
function flightsRequest(input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
  credentials(ctx);
  const read = new InputReader(KEY, input);
  const query = new URLSearchParams({
    originLocationCode: read.iataCode("origin"),
    destinationLocationCode: read.iataCode("destination"),
    departureDate: read.string("departureDate", true),
  });
  const back = read.string("returnDate");
  if (back) query.set("returnDate", back);
  query.set("adults", String(read.number("adults", { integer: true, min: 1, max: 9 }) ?? 1));
  const cabin = read.string("cabinClass");
  if (cabin !== undefined) {
    const travelClass = TRAVEL_CLASS[cabin];
    if (!travelClass) throw inputRefusal(KEY, "`cabinClass` must be economy, premium_economy, business or first", "cabinClass");
    query.set("travelClass", travelClass);
  }
  query.set("max", String(MAX_OFFERS));
  return { method: "GET", url: `${ctx.baseUrl}/v2/shopping/flight-offers?${query}`, headers: {} };
}

/** The city's hotel list (without its token), the first of the hotels search's two requests. */
function hotelListRequest(input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
  credentials(ctx);
  const city = new InputReader(KEY, input).iataCode("cityCode");
  return { method: "GET", url: `${ctx.baseUrl}/v1/reference-data/locations/hotels/by-city?cityCode=${city}`, headers: {} };
}

/** The answer's body and its `data` list, once Amadeus answered 200. */
function answered(res: RailResponse): { body: Json; data: Json[] } {
  if (res.status !== 200) throw amadeusError(res);
  if (!isRecord(res.body) || !Array.isArray(res.body.data)) throw invalidResponse(KEY, res, "without data");
  return { body: res.body, data: records(res.body.data) };
}

/**
 * Amadeus' two searches, each a flow that takes its token from `tokens` (one cache per registered
 * provider; tests bring their own clock).
 */
export function amadeusCapabilities(tokens: ClientCredentialsTokens): CapabilityTable {
  /** A GET with the bearer token; a token refused before its time (401) is renewed once. */
  async function get(request: ProviderHttpRequest, ctx: ProviderContext, vendor: VendorCalls): Promise<RailResponse> {
    const creds = credentials(ctx);
    const tokenUrl = `${ctx.baseUrl}/v1/security/oauth2/token`;
    for (let round = 0; ; round++) {
      const token = await tokens.token(tokenUrl, creds, vendor);
      const res = await vendor.send({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } });
      if (res.status !== 401 || round > 0) return res;
      tokens.invalidate(tokenUrl, creds, token);
    }
  }

  return {
    "travel.flights.search": {
      request: flightsRequest,
      async flow(input, ctx, vendor) {
        const res = await get(flightsRequest(input, ctx), ctx, vendor);
        const { body, data } = answered(res);
        const carriers = isRecord(body.dictionaries) && isRecord(body.dictionaries.carriers) ? body.dictionaries.carriers : {};
        const offers = data.map((o) => offer(res, o, carriers));
        offers.sort((a, b) => Number(a.totalAmount) - Number(b.totalAmount));
        return { status: "completed", data: { offerRequestId: null, offers: offers.slice(0, MAX_OFFERS) } };
      },
    },
    "travel.hotels.search": {
      request: hotelListRequest,
      async flow(input, ctx, vendor) {
        const list = await get(hotelListRequest(input, ctx), ctx, vendor);
        const { data: listed } = answered(list);
        const ids = listed
          .map((h) => stringField(h, "hotelId"))
          .filter((id): id is string => id !== undefined)
          .slice(0, MAX_HOTELS);
        // No hotel in the city: nothing to search, and no second billed call.
        if (ids.length === 0) return { status: "completed", data: { hotels: [] } };
        const read = new InputReader(KEY, input);
        const query = new URLSearchParams({
          hotelIds: ids.join(","),
          adults: String(read.number("adults", { integer: true, min: 1, max: 9 }) ?? 1),
          checkInDate: read.string("checkInDate", true),
          checkOutDate: read.string("checkOutDate", true),
        });
        const res = await get({ method: "GET", url: `${ctx.baseUrl}/v3/shopping/hotel-offers?${query}`, headers: {} }, ctx, vendor);
        const errors = res.status !== 200 && isRecord(res.body) ? records(res.body.errors) : [];
        if (errors.length > 0 && errors.every((e) => String(e.code) === NO_ROOMS)) return { status: "completed", data: { hotels: [] } };
        const { data: offered } = answered(res);
        const hotels = offered.filter((h) => h.available !== false && isRecord(h.hotel)).map((h) => hotel(res, h));
        const cheapest = (h: { offers: { totalAmount: string }[] }) => Math.min(...h.offers.map((o) => Number(o.totalAmount)));
        hotels.sort((a, b) => cheapest(a) - cheapest(b));
        return { status: "completed", data: { hotels } };
      },
    },
  };
}

export const amadeusProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.amadeus.com" },
  capabilities: () => amadeusCapabilities(new ClientCredentialsTokens(KEY)),
});
