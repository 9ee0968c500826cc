// How a key's own limits (from its ledger record, on the caller) combine with the configured defaults.
import { keyRecordLimits } from "./key-limits";

const DEFAULTS = { requestsPerSecond: 20, burst: 40, maxInFlight: 32 };
const caller = (limits?: object) => ({ userId: "u", keyId: "key_1", ...(limits ? { limits } : {}) });

describe("keyRecordLimits", () => {
  const source = keyRecordLimits(DEFAULTS);

  it("gives a key without limits of its own the defaults", () => {
    expect(source.limitsFor(caller())).toEqual(DEFAULTS);
  });

  it("takes each field the key sets and the default for the others", () => {
    expect(source.limitsFor(caller({ maxInFlight: 2 }))).toEqual({ ...DEFAULTS, maxInFlight: 2 });
    expect(source.limitsFor(caller({ requestsPerSecond: 1, burst: 1, maxInFlight: 1 }))).toEqual({
      requestsPerSecond: 1,
      burst: 1,
      maxInFlight: 1,
    });
  });

  it("raises a burst below the key's rate to the rate (a burst below it could never be spent)", () => {
    expect(source.limitsFor(caller({ requestsPerSecond: 100 }))).toEqual({ requestsPerSecond: 100, burst: 100, maxInFlight: 32 });
  });

  it("merges once per cached caller and sees a refreshed caller's new limits", () => {
    const cached = caller({ requestsPerSecond: 5 });
    expect(source.limitsFor(cached)).toBe(source.limitsFor(cached));
    expect(source.limitsFor(caller({ requestsPerSecond: 6 }))).toMatchObject({ requestsPerSecond: 6 });
  });
});
