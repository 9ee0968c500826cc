import { LruMap } from "./lru";

describe("LruMap", () => {
  it("never holds more than its capacity", () => {
    const lru = new LruMap<number, number>(3);
    for (let i = 0; i < 10; i++) lru.set(i, i);
    expect(lru.size).toBe(3);
    expect(lru.get(9)).toBe(9);
    expect(lru.get(6)).toBeUndefined();
  });

  it("forgets one key on delete, and everything on clear", () => {
    const lru = new LruMap<string, number>(3);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.delete("a")).toBe(true);
    expect(lru.delete("a")).toBe(false);
    expect(lru.get("a")).toBeUndefined();
    expect(lru.size).toBe(1);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.get("b")).toBeUndefined();
  });
});
