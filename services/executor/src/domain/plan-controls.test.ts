// The executor's plan controls are checked before the contract: a bad value is a 400 naming the field
// and saying what to send; good ones leave the body without them.
import type { AppError } from "@agentic/platform/core";
import { takePlanControls } from "./plan-controls";

const refusal = (body: Record<string, unknown>): AppError => {
  try {
    takePlanControls(body);
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a refusal");
};

describe("takePlanControls", () => {
  it("takes the controls out of the body and keeps the rest", () => {
    expect(
      takePlanControls({ to: "a@example.com", optimizationPreferences: ["speed", "cost"], maxPriceCredits: 12, quoteId: "quo_1" }),
    ).toEqual({
      rest: { to: "a@example.com" },
      controls: { optimizationPreferences: ["speed", "cost"], maxPriceCredits: 12, quoteId: "quo_1" },
    });
  });

  it.each([
    [{ optimizationPreferences: "cost" }, "optimizationPreferences"],
    [{ optimizationPreferences: [] }, "optimizationPreferences"],
    [{ optimizationPreferences: ["cost", "price"] }, "optimizationPreferences[1]"],
    [{ optimizationPreferences: ["speed", "speed"] }, "optimizationPreferences[1]"],
    [{ maxPriceCredits: 1.5 }, "maxPriceCredits"],
    [{ maxPriceCredits: -3 }, "maxPriceCredits"],
    [{ recommendationId: 42 }, "recommendationId"],
    [{ quoteId: "quo 1" }, "quoteId"],
    [{ quoteId: "q".repeat(129) }, "quoteId"],
    [{ recommendationId: "rec_1", optimizationPreferences: ["cost"] }, "optimizationPreferences"],
  ])("refuses %j naming %s", (body, field) => {
    const err = refusal(body);
    expect(err).toMatchObject({ kind: "invalid_argument", code: "INVALID_INPUT", details: { field } });
    expect(err.message.startsWith(field)).toBe(true);
    expect(err.hint).toMatch(/Send/);
  });
});
