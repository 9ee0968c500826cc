import { AgentPreferenceMemory } from "./preferences";
import { LruMap } from "./lru";

const DEFAULTS = ["cost", "reliability"] as const;

describe("AgentPreferenceMemory", () => {
  it("uses the request's preferences, and the agent's remembered ones when the request names none", () => {
    const memory = new AgentPreferenceMemory(10);
    expect(memory.resolve("u1", "alpha", ["speed"], DEFAULTS)).toEqual({ goals: ["speed"], source: "request" });
    expect(memory.resolve("u1", "alpha", undefined, DEFAULTS).source).toBe("default");
    memory.remember("u1", "alpha", ["speed"]);
    expect(memory.resolve("u1", "alpha", undefined, DEFAULTS)).toEqual({ goals: ["speed"], source: "agent" });
    expect(memory.resolve("u1", "alpha", ["cost"], DEFAULTS)).toEqual({ goals: ["cost"], source: "request" });
  });

  it("falls back to the defaults without an agent or a memory", () => {
    const memory = new AgentPreferenceMemory(10);
    expect(memory.resolve("u1", undefined, undefined, DEFAULTS)).toEqual({ goals: DEFAULTS, source: "default" });
    expect(memory.resolve("u1", "never-seen", undefined, DEFAULTS).source).toBe("default");
  });

  it("keeps agents of different users apart", () => {
    const memory = new AgentPreferenceMemory(10);
    memory.remember("u1", "alpha", ["quality"]);
    expect(memory.resolve("u2", "alpha", undefined, DEFAULTS).source).toBe("default");
  });

  it("forgets the least recently used agent when full", () => {
    const memory = new AgentPreferenceMemory(2);
    memory.remember("u", "a", ["speed"]);
    memory.remember("u", "b", ["speed"]);
    memory.resolve("u", "a", undefined, DEFAULTS); // a is now the most recent
    memory.remember("u", "c", ["speed"]);
    expect(memory.resolve("u", "b", undefined, DEFAULTS).source).toBe("default");
    expect(memory.resolve("u", "a", undefined, DEFAULTS).source).toBe("agent");
  });
});

describe("LruMap", () => {
  it("never holds more than its capacity", () => {
    const lru = new LruMap<number, number>(3);
    for (let i = 0; i < 10; i++) lru.set(i, i);
    expect(lru.size).toBe(3);
    expect(lru.get(9)).toBe(9);
    expect(lru.get(6)).toBeUndefined();
  });
});
