import { agentNameProblem, MAX_AGENT_NAME_LENGTH, normalizeAgentName, parseAgentName } from "./agent-name";

describe("agentNameProblem", () => {
  it("accepts 1 to MAX_AGENT_NAME_LENGTH characters and refuses empty, longer or control characters", () => {
    expect(agentNameProblem("alpha_agent")).toBeUndefined();
    expect(agentNameProblem("a".repeat(MAX_AGENT_NAME_LENGTH))).toBeUndefined();
    for (const bad of ["", "a".repeat(MAX_AGENT_NAME_LENGTH + 1), "tab\there"]) {
      expect(agentNameProblem(bad)).toBe("must be 1 to 100 characters, without control characters");
    }
  });
});

describe("normalizeAgentName", () => {
  it("makes every spelling of one agent the same name: case, invisible characters, compatibility forms, spaces", () => {
    for (const spelling of [
      "alpha",
      "Alpha",
      "ALPHA",
      "alpha\u200B", // zero-width space
      "al\u200Dpha", // zero-width joiner
      "\uFEFFalpha", // byte order mark
      "al\u00ADpha", // soft hyphen
      "\u202Ealpha\u202C", // bidi override
      "ａｌｐｈａ", // fullwidth
      "  alpha  ",
      "\u200B Alpha \u2060",
    ]) {
      expect(normalizeAgentName(spelling)).toBe("alpha");
    }
  });

  it("folds case fully (ß is ss, final sigma is sigma) and composes (e + combining acute is é)", () => {
    expect(normalizeAgentName("STRASSE")).toBe(normalizeAgentName("straße"));
    expect(normalizeAgentName("ΟΔΟΣ")).toBe(normalizeAgentName("οδος"));
    expect(normalizeAgentName("οδος")).toBe(normalizeAgentName("οδοσ"));
    expect(normalizeAgentName("Cafe\u0301")).toBe("café");
    expect(normalizeAgentName("ﬁle")).toBe("file");
  });

  it("keeps distinct names distinct and is idempotent", () => {
    expect(normalizeAgentName("alpha")).not.toBe(normalizeAgentName("beta"));
    expect(normalizeAgentName("alpha-1")).not.toBe(normalizeAgentName("alpha_1"));
    for (const s of ["Alpha\u200B", "ΟΔΟΣ", "ﷺ", "İstanbul", "Ǆ"])
      expect(normalizeAgentName(normalizeAgentName(s))).toBe(normalizeAgentName(s));
  });
});

describe("parseAgentName", () => {
  it("answers the normalized name, or the rule's problem with a name of invisible characters only or one too long once normalized", () => {
    expect(parseAgentName(" Alpha\u200B")).toEqual({ name: "alpha" });
    expect(parseAgentName("\u200B\u200C")).toEqual({ problem: "must be 1 to 100 characters, without control characters" });
    // U+FDFA is one character; NFKC spells it out in 18.
    expect(parseAgentName("\uFDFA".repeat(6))).toEqual({ problem: "must be 1 to 100 characters, without control characters" });
  });
});
