// The Duffel stand-in validates offer requests as Duffel does: its token and Duffel-Version header, IATA
// codes, dates not in the past, 1 to 9 passengers and a known cabin, in Duffel's {meta, errors[]} format.
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const auth = { authorization: "Bearer duffel_test_sandbox-token", "duffel-version": "v2" };
const url = () => `${sandbox().url}/duffel/air/offer_requests?return_offers=true`;
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const request = (data: Record<string, unknown>) => ({
  data: { slices: [{ origin: "LIS", destination: "JFK", departure_date: tomorrow() }], passengers: [{ type: "adult" }], ...data },
});

describe("Duffel stand-in", () => {
  it("answers 201 with offers for both slices of a round trip, the same offers for the same request", async () => {
    const body = request({
      slices: [
        { origin: "LIS", destination: "JFK", departure_date: tomorrow() },
        { origin: "JFK", destination: "LIS", departure_date: tomorrow() },
      ],
      cabin_class: "business",
    });
    const first = await postJson(url(), body, auth);
    expect(first.status).toBe(201);
    expect(first.body.data.id).toMatch(/^orq_/);
    expect(first.body.data.offers).toHaveLength(3);
    for (const offer of first.body.data.offers) expect(offer.slices.map((s: any) => s.origin.iata_code)).toEqual(["LIS", "JFK"]);
    const again = await postJson(url(), body, auth);
    expect(again.body.data.offers.map((o: any) => o.total_amount)).toEqual(first.body.data.offers.map((o: any) => o.total_amount));
  });

  it("refuses a wrong token (401) and a missing Duffel-Version (400) in Duffel's error format", async () => {
    const bad = await postJson(url(), request({}), { ...auth, authorization: "Bearer nope" });
    expect(bad).toMatchObject({ status: 401, body: { errors: [{ type: "authentication_error", code: "invalid_authentication" }] } });
    expect(bad.body.meta.status).toBe(401);
    const unversioned = await postJson(url(), request({}), { authorization: auth.authorization });
    expect(unversioned).toMatchObject({ status: 400, body: { errors: [{ code: "unsupported_version" }] } });
  });

  it("refuses invalid searches with 422 validation errors naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ slices: [{ origin: "Lisbon", destination: "JFK", departure_date: tomorrow() }] }, "invalid_parameter", "slices"],
      [{ slices: [{ origin: "LIS", destination: "JFK", departure_date: "2020-01-01" }] }, "departure_date_in_the_past", "slices"],
      [{ passengers: [] }, "invalid_parameter", "passengers"],
      [{ cabin_class: "luxury" }, "invalid_parameter", "cabin_class"],
    ];
    for (const [data, code, field] of cases) {
      const res = await postJson(url(), request(data), auth);
      expect([field, res.status, res.body.errors[0].code, res.body.errors[0].source.field]).toEqual([field, 422, code, field]);
    }
  });
});
