// The Lob stand-in validates letters and postcards as Lob does, dedupes creates on Idempotency-Key and
// tracks pieces by the vendor clock.
import { SANDBOX_API_KEYS } from "../src/app";
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const url = (path: string) => `${sandbox().url}/lob${path}`;
const auth = { Authorization: `Basic ${Buffer.from(`${SANDBOX_API_KEYS.lob}:`).toString("base64")}` };
const address = {
  name: "Ada Moreau",
  address_line1: "185 Berry St",
  address_city: "San Francisco",
  address_state: "CA",
  address_zip: "94107",
};
const letter = { to: address, from: address, file: "<p>Hi</p>", color: false, use_type: "operational" };

describe("Lob stand-in", () => {
  it("refuses a wrong key with Lob's 401 body", async () => {
    const res = await postJson(url("/v1/letters"), letter, { Authorization: `Basic ${Buffer.from("live_wrong:").toString("base64")}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: { message: expect.stringContaining("API key is not valid"), status_code: 401, code: "unauthorized" },
    });
  });

  it("answers 422 for what Lob requires: address fields, a ZIP code, use_type, color, the file", async () => {
    const problems: Array<[Record<string, unknown>, string]> = [
      [{ ...letter, to: { ...address, address_city: undefined } }, "to.address_city is required"],
      [{ ...letter, to: { ...address, address_zip: "9410" } }, "to.address_zip must be in a valid ZIP code format"],
      [{ ...letter, use_type: undefined }, "use_type must be one of [marketing, operational]"],
      [{ ...letter, color: undefined }, "color is required and must be a boolean"],
      [{ ...letter, file: undefined }, "file is required"],
    ];
    for (const [body, message] of problems) {
      const res = await postJson(url("/v1/letters"), body, auth);
      expect([res.status, res.body]).toEqual([422, { error: { message, status_code: 422, code: "invalid" } }]);
    }
  });

  it("creates one letter per Idempotency-Key and shows its tracking as the vendor clock moves", async () => {
    const first = await postJson(url("/v1/letters"), letter, { ...auth, "Idempotency-Key": "k1" });
    const again = await postJson(url("/v1/letters"), letter, { ...auth, "Idempotency-Key": "k1" });
    const other = await postJson(url("/v1/letters"), letter, { ...auth, "Idempotency-Key": "k2" });
    expect(first.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(other.body.id).not.toBe(first.body.id);
    sandbox().control.setVendorClock(new Date(Date.parse(first.body.date_created) + 6 * 86_400_000));
    const read = await fetch(url(`/v1/letters/${first.body.id}`), { headers: auth });
    const body = (await read.json()) as { tracking_events: Array<{ name: string }> };
    expect(body.tracking_events.map((e) => e.name)).toEqual([
      "Mailed",
      "In Transit",
      "In Local Area",
      "Processed for Delivery",
      "Delivered",
    ]);
    expect((await fetch(url("/v1/letters/ltr_missing"), { headers: auth })).status).toBe(404);
  });

  it("creates postcards of Lob's sizes only", async () => {
    const card = { to: address, front: "<b>F</b>", back: "<b>B</b>", use_type: "marketing" };
    expect((await postJson(url("/v1/postcards"), { ...card, size: "6x11" }, auth)).body).toMatchObject({
      object: "postcard",
      size: "6x11",
    });
    expect((await postJson(url("/v1/postcards"), { ...card, size: "5x7" }, auth)).body.error).toMatchObject({ status_code: 422 });
  });
});
