import { apiKeyFingerprint, canonicalJson, deriveIdempotencyKey } from "./idempotency";

const KEY = "aak_abcdefghijklmnopqrstuvwxyz0123456789AB";
const base = { keyFingerprint: apiKeyFingerprint(KEY), domain: "geo", capabilityId: "time-current", body: { timezone: "Europe/Lisbon" } };

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members, as the executor's request hash does", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"f":1}]},"b":1}');
    expect(canonicalJson([undefined])).toBe("[null]");
  });
});

describe("deriveIdempotencyKey", () => {
  it("is the same for the same call whatever the arguments' key order, and a valid Idempotency-Key", () => {
    const key = deriveIdempotencyKey(base);
    expect(key).toMatch(/^mcp1_[0-9a-f]{64}$/);
    const reordered = deriveIdempotencyKey({ ...base, body: { provider: "timeapi", timezone: "Europe/Lisbon" } });
    expect(deriveIdempotencyKey({ ...base, body: { timezone: "Europe/Lisbon", provider: "timeapi" } })).toBe(reordered);
  });

  it("differs when the caller, the capability or any argument differs", () => {
    const key = deriveIdempotencyKey(base);
    expect(deriveIdempotencyKey({ ...base, keyFingerprint: apiKeyFingerprint(`${KEY}x`) })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, capabilityId: "time-convert" })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, domain: "geo2" })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, body: { timezone: "Europe/Paris" } })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, body: { timezone: "Europe/Lisbon", allowFallback: false } })).not.toBe(key);
  });

  it("never carries the API key", () => {
    expect(apiKeyFingerprint(KEY)).not.toContain(KEY);
    expect(deriveIdempotencyKey(base)).not.toContain(KEY.slice(4, 12));
  });
});
