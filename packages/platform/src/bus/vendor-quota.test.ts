// Vendor quota windows are calendar windows in UTC: their ids are KV key tokens, and each says when it resets.
// (The counters themselves run on a real nats-server: gateway/test/one-tenant-cannot-use-up-a-shared-vendor-quota.test.ts.)
import { quotaWindowAt } from "./vendor-quota";

describe("quotaWindowAt", () => {
  const at = Date.parse("2026-12-31T23:59:30.250Z");

  it("names each window by its calendar period and resets at the next one", () => {
    expect(quotaWindowAt("minute", at)).toEqual({ id: "2026-12-31T23-59", resetAtMs: Date.parse("2027-01-01T00:00:00Z") });
    expect(quotaWindowAt("day", at)).toEqual({ id: "2026-12-31", resetAtMs: Date.parse("2027-01-01T00:00:00Z") });
    expect(quotaWindowAt("month", at)).toEqual({ id: "2026-12", resetAtMs: Date.parse("2027-01-01T00:00:00Z") });
  });

  it("gives ids a NATS KV key accepts", () => {
    for (const window of ["minute", "day", "month"] as const) expect(quotaWindowAt(window, at).id).toMatch(/^[-/_=A-Za-z0-9]+$/);
  });
});
