import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { duffelProvider } from "./duffel";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(duffelProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });
const CAP = "travel.flights.search";

/** A date `days` from today, so a departure is never in the past. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("Duffel adapter (travel.flights.search)", () => {
  it("creates an offer request with slices, passengers and cabin, Bearer and Duffel-Version on direct routes", () => {
    const req = adapter.buildRequest(
      CAP,
      { origin: "lis", destination: "LHR", departureDate: "2027-03-15", returnDate: "2027-03-20", adults: 2, cabinClass: "business" },
      { baseUrl: "https://api.duffel.com", credentials: { apiKey: "duffel_test_1" } },
    );
    expect(req).toEqual({
      method: "POST",
      url: "https://api.duffel.com/air/offer_requests?return_offers=true&supplier_timeout=10000",
      headers: { "duffel-version": "v2", authorization: "Bearer duffel_test_1" },
      body: {
        data: {
          slices: [
            { origin: "LIS", destination: "LHR", departure_date: "2027-03-15" },
            { origin: "LHR", destination: "LIS", departure_date: "2027-03-20" },
          ],
          passengers: [{ type: "adult" }, { type: "adult" }],
          cabin_class: "business",
        },
      },
    });
    expect(() =>
      adapter.buildRequest(CAP, { origin: "Lisbon", destination: "LHR", departureDate: "2027-03-15" }, { baseUrl: "https://x" }),
    ).toThrow(expect.objectContaining({ kind: "invalid_input", field: "origin" }));
  });

  it("maps {errors: [{code, message}]}: validation is the caller's, authentication and rate limits ours", () => {
    const body = (code: string) => ({ meta: { status: 0, request_id: "r" }, errors: [{ type: "x", code, message: "m" }] });
    expect(() => adapter.parseResponse(CAP, response(422, body("invalid_parameter")), {})).toThrow(
      expect.objectContaining({ status: 422, blame: "input", vendorCode: "invalid_parameter" }),
    );
    expect(() => adapter.parseResponse(CAP, response(401, body("invalid_authentication")), {})).toThrow(
      expect.objectContaining({ blame: "provider" }),
    );
    expect(() => adapter.parseResponse(CAP, response(429, body("rate_limit_exceeded")), {})).toThrow(
      expect.objectContaining({ retryable: true }),
    );
    expect(() => adapter.parseResponse(CAP, response(201, { data: {} }), {})).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("searches a round trip through the sandbox: offers cheapest first, each with both slices and their segments", async () => {
    const departureDate = inDays(30);
    const { result } = await routes.execute("duffel", "direct", CAP, {
      origin: "LIS",
      destination: "LHR",
      departureDate,
      returnDate: inDays(35),
    });
    const offers = result.data.offers as Array<{
      totalAmount: string;
      currency: string;
      slices: Array<{ origin: string; stops: number; segments: Array<{ departureAt: string }> }>;
    }>;
    expect(offers).toHaveLength(3);
    expect(offers.map((o) => Number(o.totalAmount))).toEqual([...offers.map((o) => Number(o.totalAmount))].sort((a, b) => a - b));
    for (const o of offers) {
      expect(o.currency).toBe("EUR");
      expect(o.slices.map((s) => s.origin)).toEqual(["LIS", "LHR"]);
      expect(o.slices[0]?.segments[0]?.departureAt.startsWith(departureDate)).toBe(true);
    }
    expect(result.providerMessageId).toMatch(/^orq_/);
    const [call] = routes.sandbox().control.calls("duffel");
    expect(call?.headers).toMatchObject({ authorization: "Bearer duffel_test_sandbox-token", "duffel-version": "v2" });
  });

  it("refuses a departure in the past as the caller's 422", async () => {
    expect(
      await routes.executeError("duffel", "direct", CAP, { origin: "LIS", destination: "LHR", departureDate: "2020-01-01" }),
    ).toMatchObject({
      status: 422,
      blame: "input",
      vendorCode: "departure_date_in_the_past",
    });
  });
});
