import { InputError, checkDeclaredTypes, featureAsks, parseRecommendInput, stringField } from "./request-input";

function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error("expected an InputError");
}

describe("parseRecommendInput", () => {
  it("accepts an empty or absent body", () => {
    expect(parseRecommendInput(undefined)).toEqual({ fields: {} });
    expect(parseRecommendInput({})).toEqual({ fields: {} });
  });

  it("reads agentName and ordered preferences, and keeps every other field", () => {
    const body = { agentName: " alpha_agent ", optimizationPreferences: ["quality", "cost"], to: "a@b.co" };
    expect(parseRecommendInput(body)).toEqual({ agentName: "alpha_agent", preferences: ["quality", "cost"], fields: body });
    // One agent, one name: its preference memory is keyed by the normalized form.
    expect(parseRecommendInput({ agentName: "Alpha_Agent\u200B" }).agentName).toBe("alpha_agent");
    expect(inputError(() => parseRecommendInput({ agentName: "\u200B" })).field).toBe("agentName");
  });

  it("treats an empty preference list as no preference", () => {
    expect(parseRecommendInput({ optimizationPreferences: [] }).preferences).toBeUndefined();
  });

  it("rejects an unknown goal naming the offending element", () => {
    const err = inputError(() => parseRecommendInput({ optimizationPreferences: ["cost", "cheapness"] }));
    expect(err.field).toBe("optimizationPreferences[1]");
    expect(err.hint).toContain("optimizationPreferences[1]");
    expect(err.hint).toContain("cost, reliability, speed, quality");
  });

  it("rejects a repeated goal", () => {
    expect(inputError(() => parseRecommendInput({ optimizationPreferences: ["cost", "speed", "cost"] })).field).toBe(
      "optimizationPreferences[2]",
    );
  });

  it("rejects wrong types", () => {
    expect(inputError(() => parseRecommendInput({ optimizationPreferences: "cost" })).field).toBe("optimizationPreferences");
    expect(inputError(() => parseRecommendInput({ optimizationPreferences: [1] })).field).toBe("optimizationPreferences[0]");
    expect(inputError(() => parseRecommendInput({ agentName: 7 })).field).toBe("agentName");
    expect(inputError(() => parseRecommendInput({ agentName: "   " })).field).toBe("agentName");
    expect(inputError(() => parseRecommendInput({ agentName: "x".repeat(101) })).field).toBe("agentName");
  });

  it("says how long an agentName may be", () => {
    for (const agentName of ["x".repeat(101), "   ", 7]) {
      const err = inputError(() => parseRecommendInput({ agentName }));
      expect(err.message).toBe("agentName must be a string of 1 to 100 characters");
      expect(err.hint).toContain("1 to 100 characters");
    }
    expect(parseRecommendInput({ agentName: "x".repeat(100) }).agentName).toHaveLength(100);
  });
});

describe("featureAsks", () => {
  it("counts true booleans named after a known feature, and only those", () => {
    expect(featureAsks({ tracking: true, html: false, sandbox: true }, ["tracking", "html"])).toEqual(["tracking"]);
  });

  it("takes a non-boolean value under a feature's name as an execute field, not an ask", () => {
    expect(featureAsks({ tracking: "yes" }, ["tracking"])).toEqual([]);
    expect(featureAsks({ to: "a@b.co", subject: "hi", html: "<p>x</p>" }, ["html", "text", "tracking"])).toEqual([]);
    expect(featureAsks({ html: "<p>x</p>", tracking: true }, ["html", "tracking"])).toEqual(["tracking"]);
    expect(featureAsks({ html: 1, text: {}, tracking: null }, ["html", "text", "tracking"])).toEqual([]);
  });
});

describe("stringField", () => {
  it("reads a non-empty string, ignores absent or blank, rejects other types", () => {
    expect(stringField({ inboxId: "inb_1" }, "inboxId")).toBe("inb_1");
    expect(stringField({ inboxId: " " }, "inboxId")).toBeUndefined();
    expect(stringField({}, "inboxId")).toBeUndefined();
    expect(inputError(() => stringField({ inboxId: 3 }, "inboxId")).field).toBe("inboxId");
  });
});

describe("checkDeclaredTypes", () => {
  const contract = {
    fields: [
      { name: "tracking", type: "boolean" },
      { name: "maxPriceCredits", type: "integer" },
    ],
  } as unknown as Parameters<typeof checkDeclaredTypes>[1];

  it("refuses a declared field of another type, naming it", () => {
    expect(() => checkDeclaredTypes({ tracking: "yes" }, contract)).toThrow(expect.objectContaining({ field: "tracking" }));
    expect(() => checkDeclaredTypes({ maxPriceCredits: 1.5 }, contract)).toThrow(expect.objectContaining({ field: "maxPriceCredits" }));
  });

  it("accepts declared fields of their type, and anything in fields it does not declare", () => {
    expect(() => checkDeclaredTypes({ tracking: true, maxPriceCredits: 3, html: "<p>x</p>", to: 42 }, contract)).not.toThrow();
    expect(() => checkDeclaredTypes({ tracking: "yes" }, undefined)).not.toThrow();
  });
});
