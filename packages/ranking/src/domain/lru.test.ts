import { LruMap } from "./lru";

describe("LruMap", () => {
  it("never holds more than its capacity", () => {
    const lru = new LruMap<number, number>(3);
    for (let i = 0; i < 10; i++) lru.set(i, i);
    expect(lru.size).toBe(3);
    expect(lru.get(9)).toBe(9);
    expect(lru.get(6)).toBeUndefined();
  });
});
