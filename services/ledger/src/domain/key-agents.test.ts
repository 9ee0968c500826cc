import { MAX_KEY_AGENT_NAMES, requireKeyAgents } from "./key-agents";

describe("requireKeyAgents", () => {
  it("normalizes the agent a key is issued for, or the set it requires (duplicates once normalized kept once)", () => {
    expect(requireKeyAgents(" Alpha\u200B", [])).toEqual({ agentName: "alpha" });
    expect(requireKeyAgents(undefined, ["Alpha", "beta", "ALPHA"])).toEqual({ agentNames: ["alpha", "beta"] });
    expect(requireKeyAgents(undefined, [])).toEqual({});
  });

  it("refuses both at once, a name of invisible characters only, and too many names, naming the field", () => {
    expect(() => requireKeyAgents("alpha", ["beta"])).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", kind: "invalid_argument" }),
    );
    expect(() => requireKeyAgents("\u200B", [])).toThrow(/agent_name must be 1 to 100 characters/);
    expect(() => requireKeyAgents(undefined, ["alpha", "\u200B"])).toThrow(/agent_names\[1\]/);
    expect(() =>
      requireKeyAgents(
        undefined,
        Array.from({ length: MAX_KEY_AGENT_NAMES + 1 }, (_, i) => `a${i}`),
      ),
    ).toThrow(/At most/);
  });
});
