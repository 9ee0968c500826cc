import { newId, randomBase62 } from "./ids";

describe("newId", () => {
  it("prefixes by kind and uses base62 only", () => {
    const id = newId("hold");
    expect(id).toMatch(/^hold_[0-9A-Za-z]{22}$/);
  });

  it("begins with its creation time, so ids sort by when they were made", async () => {
    const first = newId("journal");
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = newId("journal");
    expect(second > first).toBe(true);
    // The time digits are the same for ids of one millisecond; the random rest tells them apart.
    const now = Date.now();
    const ofNow = newId("hold").slice("hold_".length, "hold_".length + 8);
    let ms = 0;
    for (const c of ofNow) ms = ms * 62 + "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".indexOf(c);
    expect(ms).toBeGreaterThanOrEqual(now);
    expect(ms).toBeLessThan(now + 1_000);
  });

  it("does not repeat across many draws", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId("usage")));
    expect(ids.size).toBe(10_000);
  });

  it("returns exactly the asked length", () => {
    for (const n of [1, 7, 32, 64]) expect(randomBase62(n)).toHaveLength(n);
  });

  it("draws every character uniformly across the pool's refills", () => {
    // 62 × 2,000 characters: far more than one pool's 4,096 bytes.
    const counts = new Map<string, number>();
    for (const c of randomBase62(124_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Each count is Binomial(124000, 1/62): mean 2,000, sd about 44; ±300 is beyond six sd.
    for (const n of counts.values()) expect(Math.abs(n - 2_000)).toBeLessThan(300);
  });
});
