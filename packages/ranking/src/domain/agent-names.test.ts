import { admitAgentName, isAgentNamesExhausted, refreshPeriodMs } from "./agent-names";

const DAY = 86_400_000;
const limits = { maxNames: 3, ttlMs: 30 * DAY };

describe("admitting an agent name into a user's index", () => {
  it("adds new names up to the cap, then refuses one more with AGENT_NAMES_EXHAUSTED naming the cap", () => {
    let index = {};
    for (const [i, id] of ["a", "b", "c"].entries()) index = admitAgentName(index, id, 1_000 + i, limits)!;
    expect(index).toEqual({ a: 1_000, b: 1_001, c: 1_002 });
    let refusal: unknown;
    try {
      admitAgentName(index, "d", 2_000, limits);
    } catch (err) {
      refusal = err;
    }
    expect(isAgentNamesExhausted(refusal)).toBe(true);
    expect(refusal).toMatchObject({ kind: "failed_precondition", details: { maxAgentNames: 3 } });
    expect((refusal as Error).message).toContain("3 agent names");
  });

  it("writes nothing for a known name admitted recently, and refreshes one admitted longer ago", () => {
    const index = { a: 0, b: 0, c: 0 };
    expect(admitAgentName(index, "a", refreshPeriodMs(limits.ttlMs) - 1, limits)).toBeUndefined();
    expect(admitAgentName(index, "a", refreshPeriodMs(limits.ttlMs), limits)).toEqual({ a: refreshPeriodMs(limits.ttlMs), b: 0, c: 0 });
  });

  it("frees the place of a name only once its preferences cannot be alive any more", () => {
    const index = { a: 0, b: 0, c: 0 };
    // The preferences of `a` may have been written up to one refresh period after its entry: still counted.
    const stillAlive = limits.ttlMs + refreshPeriodMs(limits.ttlMs) - 1;
    expect(() => admitAgentName({ ...index, b: stillAlive, c: stillAlive }, "d", stillAlive, limits)).toThrow(/3 agent names/);
    const gone = limits.ttlMs + refreshPeriodMs(limits.ttlMs);
    expect(admitAgentName({ ...index, b: gone, c: gone }, "d", gone, limits)).toEqual({ b: gone, c: gone, d: gone });
  });

  it("refreshes at most daily, and a tenth of a short lifetime", () => {
    expect(refreshPeriodMs(30 * DAY)).toBe(DAY);
    expect(refreshPeriodMs(60_000)).toBe(6_000);
  });
});
