import { pathSegmentProblem } from "../domain/path-segment";
import { pathSegment } from "./url-path";

describe("one vendor path segment from input", () => {
  it("accepts plain ids, email-like ones included, and encodes them", () => {
    for (const ok of ["bot@agentmail.to", "inbox_1", "a.b-c~d+e", "x".repeat(512), "..a", "a.."])
      expect(pathSegmentProblem(ok)).toBeUndefined();
    expect(pathSegment("agentmail", "inboxId", "a+b@c.d")).toBe("a%2Bb%40c.d");
  });

  it("refuses dot segments, separators, percent-encodings, whitespace, control and non-ASCII characters, and extremes", () => {
    const refused = [
      ".",
      "..",
      "...",
      "a/b",
      "/",
      "a\\b",
      "%2e%2e",
      "%2F",
      "a b",
      "a\tb",
      "a\u0000b",
      "a\u007fb",
      "a?b",
      "a#b",
      "a;b",
      "é",
      "",
      "x".repeat(513),
    ];
    for (const bad of refused) expect([bad, pathSegmentProblem(bad)]).toEqual([bad, expect.any(String)]);
    expect(() => pathSegment("agentmail", "inboxId", "..")).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "inboxId", message: expect.stringContaining("inboxId") }),
    );
  });
});
