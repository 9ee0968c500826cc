import { choosePreferences, needsRemembered } from "./preferences";

const DEFAULTS = ["cost", "reliability"] as const;

describe("choosePreferences", () => {
  it("prefers the request's goals over the remembered ones and the defaults", () => {
    expect(choosePreferences(["speed"], ["quality"], DEFAULTS)).toEqual({ goals: ["speed"], source: "request" });
  });

  it("uses the agent's remembered goals when the request names none", () => {
    expect(choosePreferences(undefined, ["quality"], DEFAULTS)).toEqual({ goals: ["quality"], source: "agent" });
    expect(choosePreferences([], ["quality"], DEFAULTS)).toEqual({ goals: ["quality"], source: "agent" });
  });

  it("falls back to the defaults when nothing is named or remembered", () => {
    expect(choosePreferences(undefined, undefined, DEFAULTS)).toEqual({ goals: DEFAULTS, source: "default" });
  });
});

describe("needsRemembered", () => {
  it("reads the memory only for a named agent whose request names no goals", () => {
    expect(needsRemembered(undefined, "alpha")).toBe(true);
    expect(needsRemembered([], "alpha")).toBe(true);
    expect(needsRemembered(["cost"], "alpha")).toBe(false);
    expect(needsRemembered(undefined, undefined)).toBe(false);
  });
});
