import { canonicalJson } from "@agentic/platform/core";
import { requestHash } from "./request-hash";

describe("requestHash", () => {
  it("is the same whatever the key order, at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"x":2,"y":1}]},"b":1}');
    expect(requestHash("email", "send", { to: "a", subject: "b" })).toBe(requestHash("email", "send", { subject: "b", to: "a" }));
  });

  it("differs when the capability or any value differs", () => {
    const base = requestHash("email", "send", { to: "a" });
    expect(requestHash("email", "inbox-buy", { to: "a" })).not.toBe(base);
    expect(requestHash("email", "send", { to: "b" })).not.toBe(base);
    expect(requestHash("email", "send", { to: "a", cc: [] })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});
