import { GOALS, goalWeights } from "./goals";

const scheme = { decay: 0.3, unnamedWeight: 0.05 };

describe("goalWeights", () => {
  it("sums to 1 for any preference list", () => {
    for (const prefs of [[], ["cost"], ["speed", "quality"], [...GOALS]] as const) {
      const w = goalWeights(prefs, scheme);
      expect(GOALS.reduce((s, g) => s + w[g], 0)).toBeCloseTo(1, 10);
    }
  });

  it("decays by rank and gives unnamed goals the floor (documented example values)", () => {
    const w = goalWeights(["cost", "quality"], scheme);
    expect(w.cost).toBeCloseTo(1 / 1.4, 10);
    expect(w.quality).toBeCloseTo(0.3 / 1.4, 10);
    expect(w.reliability).toBeCloseTo(0.05 / 1.4, 10);
    expect(w.speed).toBe(w.reliability);
    expect(goalWeights(["cost"], scheme).cost).toBeCloseTo(0.87, 2);
  });

  it("weighs every goal equally when none is named", () => {
    const w = goalWeights([], scheme);
    expect(new Set(GOALS.map((g) => w[g])).size).toBe(1);
  });
});
