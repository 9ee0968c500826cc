// The Amadeus stand-in speaks Amadeus' wire format: a client-credentials token from the form-encoded token
// endpoint, bearer-authenticated searches, and {errors: [{status, code, title, detail, source}]} answers.
import { useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const base = () => `${sandbox().url}/amadeus`;
const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function token(clientId = "amadeus-sandbox-client", clientSecret = "amadeus-sandbox-secret", grantType = "client_credentials") {
  const res = await fetch(`${base()}/v1/security/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: grantType, client_id: clientId, client_secret: clientSecret }).toString(),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function get(path: string, bearer: string) {
  const res = await fetch(`${base()}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
  return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as any };
}

describe("Amadeus stand-in", () => {
  it("issues a bearer token for the configured client id and secret, and refuses others as Amadeus does", async () => {
    const ok = await token();
    expect(ok).toMatchObject({ status: 200, body: { token_type: "Bearer", expires_in: 1799, state: "approved" } });
    expect(ok.body.access_token).toEqual(expect.any(String));
    expect(await token("amadeus-sandbox-client", "wrong")).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await token(undefined, undefined, "password")).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
  });

  it("searches flight offers with a token, the same offers for the same query, and refuses a bad token or a past date", async () => {
    const { access_token } = (await token()).body;
    const query = `/v2/shopping/flight-offers?originLocationCode=LIS&destinationLocationCode=LHR&departureDate=${soon(30)}&returnDate=${soon(37)}&adults=2&max=2`;
    const first = await get(query, access_token);
    expect(first.status).toBe(200);
    expect(first.type).toContain("application/vnd.amadeus+json");
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0].itineraries.map((i: any) => i.segments[0].departure.iataCode)).toEqual(["LIS", "LHR"]);
    expect(first.body.dictionaries.carriers[first.body.data[0].validatingAirlineCodes[0]]).toEqual(expect.any(String));
    expect((await get(query, access_token)).body.data.map((o: any) => o.price.total)).toEqual(
      first.body.data.map((o: any) => o.price.total),
    );

    expect(await get(query, "not-a-token")).toMatchObject({
      status: 401,
      body: { errors: [{ code: 38192, title: "Invalid access token" }] },
    });
    const past = await get(
      "/v2/shopping/flight-offers?originLocationCode=LIS&destinationLocationCode=LHR&departureDate=2020-01-01&adults=1",
      access_token,
    );
    expect(past).toMatchObject({ status: 400, body: { errors: [{ status: 400, code: 425, source: { parameter: "departureDate" } }] } });
  });

  it("lists a city's hotels (none in ZZZ), then their offers for the stay", async () => {
    const { access_token } = (await token()).body;
    const list = await get("/v1/reference-data/locations/hotels/by-city?cityCode=PAR", access_token);
    const ids = list.body.data.map((h: any) => h.hotelId);
    expect(ids).toHaveLength(3);
    expect((await get("/v1/reference-data/locations/hotels/by-city?cityCode=ZZZ", access_token)).body.data).toEqual([]);
    const offers = await get(
      `/v3/shopping/hotel-offers?hotelIds=${ids.join(",")}&adults=2&checkInDate=${soon(10)}&checkOutDate=${soon(12)}`,
      access_token,
    );
    expect(offers.status).toBe(200);
    expect(offers.body.data.map((h: any) => h.hotel.hotelId)).toEqual(ids);
    expect(offers.body.data[0].offers[0]).toMatchObject({ checkInDate: soon(10), guests: { adults: 2 }, price: { currency: "EUR" } });
    const backwards = await get(
      `/v3/shopping/hotel-offers?hotelIds=${ids[0]}&checkInDate=${soon(12)}&checkOutDate=${soon(10)}`,
      access_token,
    );
    expect(backwards).toMatchObject({ status: 400, body: { errors: [{ source: { parameter: "checkOutDate" } }] } });
  });
});
