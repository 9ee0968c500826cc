import { agentNameProblem, MAX_AGENT_NAME_LENGTH } from "./agent-name";

describe("agentNameProblem", () => {
  it("accepts 1 to MAX_AGENT_NAME_LENGTH characters and refuses empty, longer or control characters", () => {
    expect(agentNameProblem("alpha_agent")).toBeUndefined();
    expect(agentNameProblem("a".repeat(MAX_AGENT_NAME_LENGTH))).toBeUndefined();
    for (const bad of ["", "a".repeat(MAX_AGENT_NAME_LENGTH + 1), "tab\there"]) {
      expect(agentNameProblem(bad)).toBe("must be 1 to 100 characters, without control characters");
    }
  });
});
