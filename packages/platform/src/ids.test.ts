import { newId, randomBase62 } from "./ids";

describe("newId", () => {
  it("prefixes by kind and uses base62 only", () => {
    const id = newId("hold");
    expect(id).toMatch(/^hold_[0-9A-Za-z]{22}$/);
  });

  it("does not repeat across many draws", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId("usage")));
    expect(ids.size).toBe(10_000);
  });

  it("returns exactly the asked length", () => {
    for (const n of [1, 7, 32, 64]) expect(randomBase62(n)).toHaveLength(n);
  });
});
