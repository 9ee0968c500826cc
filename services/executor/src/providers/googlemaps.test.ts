import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { googlemapsProvider } from "./googlemaps";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(googlemapsProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("Google Maps adapter (geo.geocode, geo.places.search)", () => {
  it("builds Geocoding and Text Search requests, with the key parameter only on direct routes", () => {
    const direct = { baseUrl: "https://maps.googleapis.com", credentials: { apiKey: "AIza1" } };
    const geocode = new URL(adapter.buildRequest("geo.geocode", { address: "Eiffel Tower", country: "fr" }, direct).url);
    expect(geocode.pathname).toBe("/maps/api/geocode/json");
    expect(Object.fromEntries(geocode.searchParams)).toEqual({ address: "Eiffel Tower", components: "country:FR", key: "AIza1" });
    const search = new URL(
      adapter.buildRequest("geo.places.search", { query: "coffee in Lisbon", openNow: true }, { baseUrl: "https://mpp.example" }).url,
    );
    expect(search.pathname).toBe("/maps/api/place/textsearch/json");
    expect(Object.fromEntries(search.searchParams)).toEqual({ query: "coffee in Lisbon", opennow: "true" });
    expect(() => adapter.buildRequest("geo.places.search", { query: "x", maxResults: 21 }, direct)).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
  });

  it("maps Google's status words: INVALID_REQUEST 400 input, REQUEST_DENIED 403 ours, OVER_QUERY_LIMIT 429 retryable", () => {
    const parse = (status: string) => () =>
      adapter.parseResponse("geo.geocode", response(200, { results: [], status, error_message: "m" }), { address: "a" });
    expect(parse("INVALID_REQUEST")).toThrow(expect.objectContaining({ status: 400, blame: "input", vendorCode: "INVALID_REQUEST" }));
    expect(parse("REQUEST_DENIED")).toThrow(expect.objectContaining({ status: 403, blame: "provider" }));
    expect(parse("OVER_QUERY_LIMIT")).toThrow(expect.objectContaining({ status: 429, retryable: true }));
    expect(parse("ZERO_RESULTS")).toThrow(expect.objectContaining({ status: 404, blame: "input" }));
    expect(parse("SOMETHING_NEW")).toThrow(expect.objectContaining({ kind: "invalid_response" }));
    // A search without results is an answer, not an error.
    expect(adapter.parseResponse("geo.places.search", response(200, { results: [], status: "ZERO_RESULTS" }), { query: "q" }).data).toEqual(
      { places: [] },
    );
  });

  it("geocodes over MPP through the sandbox, paying the Geocoding price", async () => {
    const { res, result } = await routes.execute("googlemaps", "mpp", "geo.geocode", {
      address: "1600 Amphitheatre Parkway, Mountain View",
    });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "5000", settlement: "settled" });
    expect(result.data.results).toEqual([
      {
        formattedAddress: "1600 Amphitheatre Parkway, 94043 Mountain View, United States",
        latitude: 37.4224857,
        longitude: -122.0855846,
        placeId: "ChIJ2eUgeAK6j4ARbn5u_wAGqWA",
        types: ["street_address"],
        countryCode: "US",
      },
    ]);
  });

  it("searches places over MPP through the sandbox (openNow filters, maxResults trims), paying the Text Search price", async () => {
    const { res, result } = await routes.execute("googlemaps", "mpp", "geo.places.search", {
      query: "coffee shops in Lisbon",
      maxResults: 5,
    });
    expect(res.payment).toMatchObject({ rail: "mpp", amountAtomic: "32000", settlement: "settled" });
    const places = result.data.places as Array<Record<string, unknown>>;
    expect(places.map((p) => p.name)).toEqual(["Fábrica Coffee Roasters", "Hello, Kristof", "Copenhagen Coffee Lab"]);
    expect(places[0]).toMatchObject({ rating: 4.6, ratingCount: 2841, openNow: true, priceLevel: 2, placeId: "ChIJa1b2c3d4LisbonCafe01" });
    const open = await routes.execute("googlemaps", "mpp", "geo.places.search", {
      query: "coffee shops in Lisbon",
      openNow: true,
      maxResults: 1,
    });
    expect((open.result.data.places as unknown[]).length).toBe(1);
    expect(routes.sandbox().control.calls("googlemaps").at(-1)?.query).toMatchObject({ opennow: "true" });
  });

  it("refuses a call without our key on the direct API as REQUEST_DENIED (ours, not the caller's)", async () => {
    const provider = routes.registry().get("googlemaps", "direct");
    const req = provider!.adapter.buildRequest("geo.geocode", { address: "Eiffel Tower" }, { baseUrl: provider!.ctx.baseUrl });
    const res = await fetch(req.url);
    const body: unknown = await res.json();
    expect(() => adapter.parseResponse("geo.geocode", { status: res.status, headers: {}, body }, { address: "Eiffel Tower" })).toThrow(
      expect.objectContaining({ status: 403, blame: "provider", vendorCode: "REQUEST_DENIED" }),
    );
  });
});
