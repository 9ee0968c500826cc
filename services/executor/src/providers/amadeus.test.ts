import { amadeusCapabilities, amadeusProvider } from "./amadeus";
import { providerAdapter } from "./registry";
import { runFlowOnSandbox, served } from "./flow-route.fixture";
import { ClientCredentialsTokens } from "./oauth-client-credentials";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter = providerAdapter(amadeusProvider);
const ctx = { baseUrl: "https://api.amadeus.com", credentials: { apiKey: "id-1:secret-1" } };
const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const flights = { origin: "lis", destination: "LHR", departureDate: soon(30), returnDate: soon(37), adults: 2, cabinClass: "business" };
const hotels = { cityCode: "PAR", checkInDate: soon(10), checkOutDate: soon(12), adults: 2 };
const calls = () =>
  routes
    .sandbox()
    .control.calls("amadeus")
    .map((c) => `${c.method} ${c.path} ${c.status}`);
const TOKEN = "POST /v1/security/oauth2/token 200";
const FLIGHTS = "GET /v2/shopping/flight-offers 200";

describe("Amadeus adapter: the requests", () => {
  it("plans the flight search as GET /v2/shopping/flight-offers with Amadeus' parameter names", () => {
    const { method, url } = adapter.buildRequest("travel.flights.search", flights, ctx);
    expect(method).toBe("GET");
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe("https://api.amadeus.com/v2/shopping/flight-offers");
    expect(Object.fromEntries(u.searchParams)).toEqual({
      originLocationCode: "LIS",
      destinationLocationCode: "LHR",
      departureDate: soon(30),
      returnDate: soon(37),
      adults: "2",
      travelClass: "BUSINESS",
      max: "20",
    });
    expect(adapter.buildRequest("travel.hotels.search", hotels, ctx).url).toBe(
      "https://api.amadeus.com/v1/reference-data/locations/hotels/by-city?cityCode=PAR",
    );
  });

  it("refuses a code that is not IATA (naming the field) and a configured key without its secret", () => {
    expect(() => adapter.buildRequest("travel.flights.search", { ...flights, origin: "Lisbon" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "origin", blame: "input" }),
    );
    expect(() => adapter.buildRequest("travel.hotels.search", hotels, { ...ctx, credentials: { apiKey: "only-an-id" } })).toThrow(
      /AMADEUS_API_KEY must be <client_id>:<client_secret>/,
    );
  });
});

describe("Amadeus adapter: the flows through the sandbox", () => {
  it("takes a token, then searches flights: offers normalized as Duffel's, cheapest first, airline named", async () => {
    const result = served(
      await runFlowOnSandbox(routes, "amadeus", "travel.flights.search", flights, { adapter: providerAdapter(amadeusProvider) }),
    );
    expect(calls()).toEqual([TOKEN, FLIGHTS]);
    const offers = result.data.offers as { totalAmount: string; airline: { code: string; name: string }; slices: { origin: string }[] }[];
    expect(offers).toHaveLength(3);
    expect(offers.map((o) => Number(o.totalAmount))).toEqual([...offers.map((o) => Number(o.totalAmount))].sort((a, b) => a - b));
    expect(offers[0]!.airline.name).toEqual(expect.any(String));
    expect(offers[0]!.slices.map((s) => s.origin)).toEqual(["LIS", "LHR"]);
    expect(result.data.offerRequestId).toBeNull();
  });

  it("keeps the token for the next calls, concurrent ones too, until shortly before it expires", async () => {
    let now = Date.now();
    const own = providerAdapter({
      ...amadeusProvider,
      capabilities: amadeusCapabilities(new ClientCredentialsTokens("amadeus", () => now)),
    });
    const run = () => runFlowOnSandbox(routes, "amadeus", "travel.flights.search", flights, { adapter: own });
    served(await run());
    await Promise.all([run(), run(), run()]);
    expect(calls().filter((c) => c === TOKEN)).toHaveLength(1);
    now += (1799 - 59) * 1000; // within the last minute of the token's 1799 s
    served(await run());
    expect(calls().filter((c) => c === TOKEN)).toHaveLength(2);
  });

  it("renews a token Amadeus refuses before its time, once", async () => {
    const own = providerAdapter(amadeusProvider);
    served(await runFlowOnSandbox(routes, "amadeus", "travel.flights.search", flights, { adapter: own }));
    routes.sandbox().control.clearCalls();
    routes.sandbox().control.setFault({ provider: "amadeus", mode: "fail", status: 401, count: 1 });
    served(await runFlowOnSandbox(routes, "amadeus", "travel.flights.search", flights, { adapter: own }));
    expect(calls()).toEqual(["GET /v2/shopping/flight-offers 401", TOKEN, FLIGHTS]);
  });

  it("lists the city's hotels, then searches their offers; a city without hotels makes no second call", async () => {
    const result = served(
      await runFlowOnSandbox(routes, "amadeus", "travel.hotels.search", hotels, { adapter: providerAdapter(amadeusProvider) }),
    );
    expect(calls()).toEqual([TOKEN, "GET /v1/reference-data/locations/hotels/by-city 200", "GET /v3/shopping/hotel-offers 200"]);
    const found = result.data.hotels as { hotelId: string; offers: { totalAmount: string; adults: number; roomType: string }[] }[];
    expect(found).toHaveLength(3);
    expect(found[0]!.offers[0]).toMatchObject({ adults: 2, roomType: "STANDARD_ROOM", totalAmount: expect.stringMatching(/^\d+\.\d\d$/) });
    const cheapest = found.map((h) => Math.min(...h.offers.map((o) => Number(o.totalAmount))));
    expect(cheapest).toEqual([...cheapest].sort((a, b) => a - b));

    routes.sandbox().control.clearCalls();
    const none = served(await runFlowOnSandbox(routes, "amadeus", "travel.hotels.search", { ...hotels, cityCode: "ZZZ" }));
    expect(none.data).toEqual({ hotels: [] });
    expect(calls().filter((c) => c.includes("hotel-offers"))).toEqual([]);
  });

  it("reports Amadeus' refusals: the caller's bad date as input, our refused credentials as the provider's", async () => {
    const past = await runFlowOnSandbox(routes, "amadeus", "travel.flights.search", { ...flights, departureDate: "2020-01-01" });
    expect(past).toMatchObject({
      ok: false,
      vendorActed: false,
      err: { kind: "http_4xx", status: 400, blame: "input", vendorCode: "425" },
    });

    const bad = await runFlowOnSandbox(routes, "amadeus", "travel.flights.search", flights, { apiKey: "amadeus-sandbox-client:nope" });
    expect(bad).toMatchObject({ ok: false, err: { kind: "http_4xx", status: 401, blame: "provider", vendorCode: "invalid_client" } });
  });

  it("gives each request the provider timeout, inside the flow's deadline", async () => {
    routes.sandbox().control.setFault({ provider: "amadeus", mode: "timeout", count: 1 });
    const slow = await runFlowOnSandbox(routes, "amadeus", "travel.flights.search", flights, {
      adapter: providerAdapter(amadeusProvider),
      deadlineMs: 5_000,
      requestTimeoutMs: 200,
    });
    expect(slow).toMatchObject({ ok: false, vendorActed: false, err: { kind: "timeout" } });
  });

  it("never runs on a paid rail, where each request would be paid: nothing is sent", async () => {
    const paid = await runFlowOnSandbox(routes, "amadeus", "travel.flights.search", flights, {
      network: "mpp",
      apiKey: "amadeus-sandbox-client:amadeus-sandbox-secret",
    });
    expect(paid).toMatchObject({
      ok: false,
      vendorActed: false,
      err: { kind: "payment_rejected", reason: "multi_request_flow_on_paid_rail" },
    });
    expect(calls()).toEqual([]);
  });
});
