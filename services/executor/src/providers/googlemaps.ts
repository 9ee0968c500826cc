// Google Maps Platform (geo.geocode, geo.places.search): GET /maps/api/geocode/json?address=
// [&components=country:XX] and GET /maps/api/place/textsearch/json?query=[&opennow=true] (the `key`
// query parameter on direct routes; none on the MPP host, where the payment replaces it) → {results,
// status}. Google reports errors by the `status` word, mostly with HTTP 200: ZERO_RESULTS (no geocode
// match is the caller's 404; a search without results is an empty list), INVALID_REQUEST (the caller's
// 400), REQUEST_DENIED (our key, 403), OVER_QUERY_LIMIT / OVER_DAILY_LIMIT (429), UNKNOWN_ERROR (503).
import type { RailResponse } from "../domain/rail-port";
import { InputReader } from "./input";
import type { ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { GEOCODE_RESULTS, geocodeInput } from "./mapbox";

const KEY = "googlemaps";

/** Text Search answers up to 20 places per page. */
const MAX_PLACES = 20;

/** The HTTP status each of Google's error words means. */
const STATUS_OF: Readonly<Record<string, number>> = {
  INVALID_REQUEST: 400,
  NOT_FOUND: 404,
  REQUEST_DENIED: 403,
  OVER_QUERY_LIMIT: 429,
  OVER_DAILY_LIMIT: 429,
  UNKNOWN_ERROR: 503,
};

type Result = Record<string, unknown>;

function location(r: Result): { lat: number; lng: number } | undefined {
  const loc = isRecord(r.geometry) && isRecord(r.geometry.location) ? r.geometry.location : undefined;
  return loc && typeof loc.lat === "number" && typeof loc.lng === "number" ? { lat: loc.lat, lng: loc.lng } : undefined;
}

const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** Our key as the `key` query parameter on direct routes. */
const keyParam = (ctx: ProviderContext) => ourKeyAs(ctx, "key");

/** The results of an answer whose status word is OK or ZERO_RESULTS (`empty`); any other word is the error it means. */
function resultsOf(res: RailResponse): { results: Result[]; empty: boolean } {
  const word = stringField(res.body, "status");
  const message = stringField(res.body, "error_message");
  if (res.status !== 200) throw vendorError(KEY, res, { ...(word ? { code: word } : {}), ...(message ? { message } : {}) });
  const results = isRecord(res.body) && Array.isArray(res.body.results) ? res.body.results.filter(isRecord) : undefined;
  if (!word || !results) throw invalidResponse(KEY, res, "without status and results");
  const empty = word === "ZERO_RESULTS";
  if (word !== "OK" && !empty) {
    const status = STATUS_OF[word];
    if (!status) throw invalidResponse(KEY, res, `with status ${word}`);
    throw vendorError(KEY, { ...res, status }, { code: word, ...(message ? { message } : {}) });
  }
  return { results, empty };
}

function geocoded(res: RailResponse, r: Result) {
  const loc = location(r);
  if (!loc) throw invalidResponse(KEY, res, "with a result without a location");
  const country = Array.isArray(r.address_components)
    ? r.address_components.filter(isRecord).find((c) => strings(c.types).includes("country"))
    : undefined;
  return {
    formattedAddress: stringField(r, "formatted_address") ?? null,
    latitude: loc.lat,
    longitude: loc.lng,
    placeId: stringField(r, "place_id") ?? null,
    types: strings(r.types),
    countryCode: stringField(country, "short_name") ?? null,
  };
}

function place(res: RailResponse, r: Result) {
  const loc = location(r);
  const name = stringField(r, "name");
  if (!loc || !name) throw invalidResponse(KEY, res, "with a place without name or location");
  const hours = isRecord(r.opening_hours) ? r.opening_hours : undefined;
  const num = (field: string) => (typeof r[field] === "number" ? (r[field] as number) : null);
  return {
    name,
    address: stringField(r, "formatted_address") ?? null,
    latitude: loc.lat,
    longitude: loc.lng,
    placeId: stringField(r, "place_id") ?? null,
    rating: num("rating"),
    ratingCount: num("user_ratings_total"),
    priceLevel: num("price_level"),
    openNow: typeof hours?.open_now === "boolean" ? hours.open_now : null,
    types: strings(r.types),
    businessStatus: stringField(r, "business_status") ?? null,
  };
}

/** The MPP host has no default here: deployments set GOOGLEMAPS_MPP_BASE_URL to the seller they pay. */
export const googlemapsProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://maps.googleapis.com" },
  capabilities: {
    "geo.geocode": {
      request(input, ctx) {
        const { address, country } = geocodeInput(KEY, input);
        const query = new URLSearchParams({
          address,
          ...(country ? { components: `country:${country.toUpperCase()}` } : {}),
          ...keyParam(ctx),
        });
        return { method: "GET", url: `${ctx.baseUrl}/maps/api/geocode/json?${query.toString()}`, headers: {} };
      },
      parse(res, input) {
        const { results, empty } = resultsOf(res);
        if (empty || results.length === 0) {
          const { address } = geocodeInput(KEY, input);
          throw vendorError(KEY, { ...res, status: 404 }, { code: "ZERO_RESULTS", message: `no place matches "${address}"` });
        }
        return { status: "completed", data: { results: results.slice(0, GEOCODE_RESULTS).map((r) => geocoded(res, r)) } };
      },
    },
    "geo.places.search": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const text = read.string("query", true).trim();
        read.number("maxResults", { integer: true, min: 1, max: MAX_PLACES });
        const openNow = read.raw("openNow") === true;
        const query = new URLSearchParams({ query: text, ...(openNow ? { opennow: "true" } : {}), ...keyParam(ctx) });
        return { method: "GET", url: `${ctx.baseUrl}/maps/api/place/textsearch/json?${query.toString()}`, headers: {} };
      },
      parse(res, input) {
        const { results } = resultsOf(res);
        const max = new InputReader(KEY, input).number("maxResults", { integer: true, min: 1 }) ?? MAX_PLACES;
        return { status: "completed", data: { places: results.slice(0, max).map((r) => place(res, r)) } };
      },
    },
  },
});
