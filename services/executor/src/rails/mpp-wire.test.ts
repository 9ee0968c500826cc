import { parseAuthenticate, readPaymentChallenges, readReceipt } from "./mpp-wire";

describe("WWW-Authenticate parsing", () => {
  it("splits several challenges joined into one value, keeping quoted commas and escapes", () => {
    const value =
      'Bearer realm="api", Payment id="a,b", realm="x.example", method="stripe", intent="charge", request="e30", Payment id="c\\"d", realm="x.example", method=evm, intent="charge", request="eyJ9", expires="2026-11-22T12:00:00Z", foo="ignored"';
    expect(parseAuthenticate(value).map((c) => c.scheme)).toEqual(["Bearer", "Payment", "Payment"]);
    const payments = readPaymentChallenges(value);
    expect(payments).toEqual([
      { id: "a,b", realm: "x.example", method: "stripe", intent: "charge", request: "e30" },
      { id: 'c"d', realm: "x.example", method: "evm", intent: "charge", request: "eyJ9", expires: "2026-11-22T12:00:00Z" },
    ]);
  });

  it("skips token68 challenges of other schemes and keeps header/opaque/digest params", () => {
    const value =
      'Basic YWxhZGRpbg==, Payment ID="i", Realm="r", Method="EVM", Intent="charge", Request="q", opaque="o", digest="sha-256=:x:", header="Payment-Authorization"';
    expect(readPaymentChallenges(value)).toEqual([
      {
        id: "i",
        realm: "r",
        method: "evm",
        intent: "charge",
        request: "q",
        opaque: "o",
        digest: "sha-256=:x:",
        header: "Payment-Authorization",
      },
    ]);
  });

  it("drops Payment challenges missing a required param", () => {
    expect(readPaymentChallenges('Payment id="i", realm="r", method="evm", intent="charge"')).toEqual([]);
    expect(readPaymentChallenges(undefined)).toEqual([]);
  });
});

describe("Payment-Receipt", () => {
  it("reads a successful receipt and ignores anything else", () => {
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    expect(readReceipt(encode({ method: "evm", reference: "0xabc", status: "success", timestamp: "2026-11-22T00:00:00Z" }))).toEqual({
      method: "evm",
      reference: "0xabc",
      timestamp: "2026-11-22T00:00:00Z",
    });
    expect(readReceipt(encode({ reference: "0xabc", status: "failed" }))).toBeUndefined();
    expect(readReceipt("not base64url!")).toBeUndefined();
  });
});
