import { canonicalJson } from "./canonical-json";

/** The hand-written serializer fingerprints were made with before; stored Idempotency-Key fingerprints must not change. */
function previousCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(previousCanonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${previousCanonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and leaves undefined members out", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: null, u: undefined } })).toBe(
      '{"a":{"c":null,"d":[2,{"x":2,"y":1}]},"b":1}',
    );
  });

  it.each([
    [
      "an execute body",
      { to: "ada@example.com", subject: "Hi", html: "<p>é ✓ \u2028</p>", cc: [], provider: "resend", allowFallback: true },
    ],
    ["keys that sort by UTF-16 code unit", { Z: 1, a: 2, é: 3, "\u{1F600}": 4, "": 5, "10": 6, "9": 7 }],
    ["numbers", { big: 1e21, small: 1e-7, neg: -0, frac: 0.1 + 0.2, int: 42, inf: Number.POSITIVE_INFINITY, nan: Number.NaN }],
    ["arrays with holes", { list: [1, undefined, null, "x", [[]], {}] }],
    ["escapes", { s: 'quote " backslash \\ newline \n tab \t nul \u0000' }],
    ["top-level scalars", "text"],
    ["null", null],
  ])("gives the same text as the serializer fingerprints were made with (%s)", (_what, value) => {
    expect(canonicalJson(value)).toBe(previousCanonicalJson(value));
  });
});
