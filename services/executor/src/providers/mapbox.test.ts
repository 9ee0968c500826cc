import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { mapboxProvider } from "./mapbox";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(mapboxProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const CAP = "geo.geocode";

describe("Mapbox adapter (geo.geocode)", () => {
  it("asks v6 forward geocoding with the access_token parameter only on direct routes", () => {
    const req = adapter.buildRequest(
      CAP,
      { address: "Praça do Comércio, Lisbon", country: "PT" },
      { baseUrl: "https://api.mapbox.com", credentials: { apiKey: "pk.1" } },
    );
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe("https://api.mapbox.com/search/geocode/v6/forward");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "Praça do Comércio, Lisbon",
      limit: "5",
      country: "pt",
      access_token: "pk.1",
    });
    expect(() => adapter.buildRequest(CAP, { address: "x", country: "Portugal" }, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "country" }),
    );
  });

  it("maps {message} errors: 401 is our token, 422 the caller's query, 429 retryable; no feature is a 404", () => {
    const input = { address: "somewhere" };
    expect(() => adapter.parseResponse(CAP, response(401, { message: "Not Authorized - Invalid Token" }), input)).toThrow(
      expect.objectContaining({ status: 401, blame: "provider" }),
    );
    expect(() => adapter.parseResponse(CAP, response(422, { message: "Query too long" }), input)).toThrow(
      expect.objectContaining({ status: 422, blame: "input" }),
    );
    expect(() => adapter.parseResponse(CAP, response(429, { message: "Too Many Requests" }), input)).toThrow(
      expect.objectContaining({ retryable: true }),
    );
    expect(() => adapter.parseResponse(CAP, response(200, { type: "FeatureCollection", features: [] }), input)).toThrow(
      expect.objectContaining({ status: 404, blame: "input", vendorCode: "no_match" }),
    );
  });

  it("geocodes an address through the sandbox over the direct API", async () => {
    const { result } = await routes.execute("mapbox", "direct", CAP, { address: "10 Downing Street, London" });
    expect(result.data.results).toEqual([
      {
        formattedAddress: "10 Downing Street, SW1A 2AA London, United Kingdom",
        latitude: 51.5033635,
        longitude: -0.1276248,
        placeId: expect.any(String),
        types: ["address"],
        countryCode: "GB",
      },
    ]);
    expect(routes.sandbox().control.calls("mapbox")[0]?.query).toMatchObject({ access_token: "pk.mapbox-sandbox-token", limit: "5" });
    expect(await routes.executeError("mapbox", "direct", CAP, { address: "10 Downing Street, London", country: "FR" })).toMatchObject({
      status: 404,
    });
  });
});
