// Google Maps Platform stand-in (`key` query parameter on its direct mount; its MPP host prices each
// API as Google bills it): GET /maps/api/geocode/json?address=[&components=country:XX] and
// GET /maps/api/place/textsearch/json?query=[&opennow=true] → {results, status}. Like Google it answers
// its errors with a `status` word (ZERO_RESULTS, INVALID_REQUEST, REQUEST_DENIED, OVER_QUERY_LIMIT) and
// an `error_message`, mostly with HTTP 200. Answers come from the fixed gazetteer.
import type { SandboxVendor, VendorDefinition, VendorOptions, VendorReply, VendorRequest } from "../http/vendor";
import { geocode, searchPlaces, type Address } from "./gazetteer";

const status = (word: string, message?: string, http = 200): VendorReply => ({
  status: http,
  body: { ...(message ? { error_message: message } : {}), results: [], status: word },
});

export function googlemapsVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "googlemaps",
    price: { amountAtomic: priceAtomic, description: "Google Maps Platform call" },
    authenticate: (req) =>
      req.query.key === undefined
        ? status("REQUEST_DENIED", "You must use an API key to authenticate each request to Google Maps Platform APIs.")
        : req.query.key === apiKey
          ? undefined
          : status("REQUEST_DENIED", "The provided API key is invalid."),
    errorReply: (http, message) =>
      status(http === 429 ? "OVER_QUERY_LIMIT" : http >= 500 ? "UNKNOWN_ERROR" : "INVALID_REQUEST", message, http),
    routes: [
      // Geocoding $5 and Places Text Search $32 per 1,000 calls, as Google bills them.
      { method: "GET", path: "/maps/api/geocode/json", priceAtomic: "5000", handle: geocodeJson },
      { method: "GET", path: "/maps/api/place/textsearch/json", priceAtomic: "32000", handle: textSearch },
    ],
  };
}

function component(type: string, long: string, short = long) {
  return { long_name: long, short_name: short, types: [type, "political"] };
}

function geocodeResult(a: Address) {
  const formatted =
    a.kind === "place"
      ? `${a.city}, ${a.country}`
      : [a.street || a.name, [a.postcode, a.city].filter(Boolean).join(" "), a.country].join(", ");
  return {
    address_components: [
      component("locality", a.city),
      component("administrative_area_level_1", a.region),
      component("country", a.country, a.countryCode),
      ...(a.postcode ? [{ long_name: a.postcode, short_name: a.postcode, types: ["postal_code"] }] : []),
    ],
    formatted_address: formatted,
    geometry: { location: { lat: a.lat, lng: a.lng }, location_type: a.kind === "address" ? "ROOFTOP" : "GEOMETRIC_CENTER" },
    place_id: a.id,
    types: a.kind === "place" ? ["locality", "political"] : a.kind === "poi" ? ["point_of_interest", "establishment"] : ["street_address"],
  };
}

function geocodeJson(req: VendorRequest): VendorReply {
  const address = req.query.address ?? "";
  if (address.trim().length === 0)
    return status("INVALID_REQUEST", "Invalid request. Missing the 'address', 'components', 'latlng' or 'place_id' parameter.");
  const country = /(?:^|\|)country:([a-zA-Z]{2})(?:\||$)/.exec(req.query.components ?? "")?.[1];
  const results = geocode(address, country).map(geocodeResult);
  return { status: 200, body: results.length ? { results, status: "OK" } : { results: [], status: "ZERO_RESULTS" } };
}

function textSearch(req: VendorRequest): VendorReply {
  const query = req.query.query ?? "";
  if (query.trim().length === 0) return status("INVALID_REQUEST", "Invalid request. Missing the 'query' parameter.");
  const results = searchPlaces(query, req.query.opennow === "true").map((p) => ({
    business_status: "OPERATIONAL",
    formatted_address: p.address,
    geometry: { location: { lat: p.lat, lng: p.lng } },
    name: p.name,
    opening_hours: { open_now: p.openNow },
    place_id: p.id,
    price_level: p.priceLevel,
    rating: p.rating,
    types: p.types,
    user_ratings_total: p.ratings,
  }));
  return {
    status: 200,
    body: results.length
      ? { html_attributions: [], results, status: "OK" }
      : { html_attributions: [], results: [], status: "ZERO_RESULTS" },
  };
}

export const googlemapsSandbox = {
  key: "googlemaps",
  apiKey: "googlemaps-sandbox-key",
  priceAtomic: "5000",
  create: googlemapsVendor,
} as const satisfies SandboxVendor;
