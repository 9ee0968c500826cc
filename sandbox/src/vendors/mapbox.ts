// Mapbox Geocoding API v6 stand-in (`access_token` query parameter): GET /search/geocode/v6/forward?q=
// [&country=&limit=] → a GeoJSON FeatureCollection whose features carry properties {mapbox_id,
// feature_type, name, full_address, place_formatted, coordinates, context}; errors {message} with 401,
// 422 and 429 as Mapbox answers them. Answers come from the fixed gazetteer.
import type { SandboxVendor, VendorDefinition, VendorOptions, VendorReply, VendorRequest } from "../http/vendor";
import { geocode, type Address } from "./gazetteer";

const error = (status: number, message: string): VendorReply => ({ status, body: { message } });

export function mapboxVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "mapbox",
    price: { amountAtomic: priceAtomic, description: "Mapbox forward geocoding" },
    authenticate: (req) =>
      req.query.access_token === undefined
        ? error(401, "Not Authorized - No Token")
        : req.query.access_token === apiKey
          ? undefined
          : error(401, "Not Authorized - Invalid Token"),
    errorReply: error,
    routes: [{ method: "GET", path: "/search/geocode/v6/forward", handle: forward }],
  };
}

function feature(a: Address) {
  const fullAddress = [a.street || a.name, [a.postcode, a.city].filter(Boolean).join(" "), a.country].filter(Boolean).join(", ");
  return {
    type: "Feature",
    id: `dXJuOm1ieGFkcjo${a.id}`,
    geometry: { type: "Point", coordinates: [a.lng, a.lat] },
    properties: {
      mapbox_id: `dXJuOm1ieGFkcjo${a.id}`,
      feature_type: a.kind === "place" ? "place" : "address",
      name: a.name,
      full_address: a.kind === "place" ? `${a.city}, ${a.country}` : fullAddress,
      place_formatted: [a.postcode, a.city, a.country].filter(Boolean).join(", "),
      coordinates: { longitude: a.lng, latitude: a.lat, accuracy: a.kind === "address" ? "rooftop" : "point" },
      context: {
        place: { name: a.city },
        region: { name: a.region },
        country: { name: a.country, country_code: a.countryCode },
        ...(a.postcode ? { postcode: { name: a.postcode } } : {}),
      },
    },
  };
}

function forward(req: VendorRequest): VendorReply {
  const q = req.query.q ?? "";
  if (q.trim().length === 0) return error(422, "Query parameter q is required");
  if (q.length > 256) return error(422, "Query too long - 256 characters max");
  const limit = req.query.limit === undefined ? 5 : Number(req.query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10) return error(422, "limit must be a number between 1 and 10");
  const country = req.query.country;
  if (country !== undefined && !/^[a-zA-Z]{2}(,[a-zA-Z]{2})*$/.test(country)) return error(422, `Country "${country}" is invalid`);
  const matches = geocode(q, country?.split(",")[0]).slice(0, limit);
  return {
    status: 200,
    body: {
      type: "FeatureCollection",
      features: matches.map(feature),
      attribution: "NOTICE: © 2026 Mapbox and its suppliers. All rights reserved.",
    },
  };
}

export const mapboxSandbox = {
  key: "mapbox",
  apiKey: "pk.mapbox-sandbox-token",
  priceAtomic: "1000",
  create: mapboxVendor,
} as const satisfies SandboxVendor;
