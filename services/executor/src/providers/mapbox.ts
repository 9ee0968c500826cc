// Mapbox Geocoding API v6 (geo.geocode): GET /search/geocode/v6/forward?q=&limit=5[&country=]
// (`access_token` query parameter on direct routes) → a GeoJSON FeatureCollection; each feature's
// properties give the address, coordinates and country. No feature is the caller's 404. Errors are
// {message} (401 token, 422 bad query, 429 rate limit).
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";

const KEY = "mapbox";

/** Candidates returned per geocode. */
export const GEOCODE_RESULTS = 5;

/** The input's address and optional ISO 3166 alpha-2 country, shared by the geocoding adapters. */
export function geocodeInput(providerKey: string, input: CapabilityInput): { address: string; country?: string } {
  const read = new InputReader(providerKey, input);
  const address = read.string("address", true).trim();
  const country = read.string("country")?.trim();
  if (country !== undefined && !/^[A-Za-z]{2}$/.test(country))
    throw inputRefusal(providerKey, "`country` must be an ISO 3166-1 alpha-2 code, e.g. PT", "country");
  return { address, ...(country ? { country: country.toLowerCase() } : {}) };
}

export const mapboxProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.mapbox.com" },
  capabilities: {
    "geo.geocode": {
      request(input, ctx) {
        const { address, country } = geocodeInput(KEY, input);
        const query = new URLSearchParams({
          q: address,
          limit: String(GEOCODE_RESULTS),
          ...(country ? { country } : {}),
          ...ourKeyAs(ctx, "access_token"),
        });
        return { method: "GET", url: `${ctx.baseUrl}/search/geocode/v6/forward?${query.toString()}`, headers: {} };
      },
      parse(res, input) {
        if (res.status !== 200) throw vendorError(KEY, res, { message: stringField(res.body, "message") });
        const features = isRecord(res.body) && Array.isArray(res.body.features) ? res.body.features.filter(isRecord) : undefined;
        if (!features) throw invalidResponse(KEY, res, "without features");
        const { address } = geocodeInput(KEY, input);
        if (features.length === 0)
          throw vendorError(KEY, { ...res, status: 404 }, { code: "no_match", message: `no place matches "${address}"` });
        const results = features.map((f) => {
          const p = isRecord(f.properties) ? f.properties : {};
          const coords = isRecord(p.coordinates) ? p.coordinates : {};
          const country = isRecord(p.context) && isRecord(p.context.country) ? p.context.country : {};
          if (typeof coords.latitude !== "number" || typeof coords.longitude !== "number")
            throw invalidResponse(KEY, res, "with a feature without coordinates");
          return {
            formattedAddress: stringField(p, "full_address") ?? stringField(p, "name") ?? null,
            latitude: coords.latitude,
            longitude: coords.longitude,
            placeId: stringField(p, "mapbox_id") ?? null,
            types: stringField(p, "feature_type") ? [stringField(p, "feature_type")] : [],
            countryCode: stringField(country, "country_code")?.toUpperCase() ?? null,
          };
        });
        return { status: "completed", data: { results } };
      },
    },
  },
});
