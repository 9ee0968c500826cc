// The controls of an execute body that shape its plan beyond the contract's pins: optimizationPreferences
// (the router's ranking goals), maxPriceCredits (no dearer route is tried), recommendationId (run a
// stored ranking) and quoteId (run a quote at its price). The executor owns them, so it checks them
// here, before the body meets the capability's contract, and takes them out of the input.
import { invalidArgument, type AppError } from "@agentic/platform/core";

export const PLAN_CONTROLS = ["optimizationPreferences", "maxPriceCredits", "recommendationId", "quoteId"] as const;

/** The goals the router ranks by, as recommend accepts them. */
export const OPTIMIZATION_GOALS = ["cost", "reliability", "speed", "quality"] as const;

/** Longest recommendation or quote id accepted; both are ids the services issued. */
const MAX_ID_LENGTH = 128;
/** Most credits maxPriceCredits may name (the ledger's largest amount). */
const MAX_CREDITS = 1_000_000_000_000;

export interface PlanControls {
  optimizationPreferences?: string[];
  maxPriceCredits?: number;
  recommendationId?: string;
  quoteId?: string;
}

/** The plan controls of a flat body (nulls already dropped), checked, and the body without them. Throws a 400 naming the field. */
export function takePlanControls(flat: Readonly<Record<string, unknown>>): { rest: Record<string, unknown>; controls: PlanControls } {
  const { optimizationPreferences, maxPriceCredits, recommendationId, quoteId, ...rest } = flat;
  const controls: PlanControls = {};
  if (optimizationPreferences !== undefined) controls.optimizationPreferences = goals(optimizationPreferences);
  if (maxPriceCredits !== undefined) {
    if (typeof maxPriceCredits !== "number" || !Number.isInteger(maxPriceCredits) || maxPriceCredits < 1 || maxPriceCredits > MAX_CREDITS)
      throw invalidControl(
        "maxPriceCredits",
        "must be a whole number of credits from 1",
        "Send maxPriceCredits as the most one execution may cost, in credits (1000 credits = 1 USD), e.g. 12.",
      );
    controls.maxPriceCredits = maxPriceCredits;
  }
  if (recommendationId !== undefined)
    controls.recommendationId = id("recommendationId", recommendationId, "the recommendationId recommend answered");
  if (quoteId !== undefined) controls.quoteId = id("quoteId", quoteId, "the quoteId POST .../quote answered");
  if (controls.recommendationId !== undefined && controls.optimizationPreferences !== undefined)
    throw invalidControl(
      "optimizationPreferences",
      "cannot change a stored recommendation's ranking",
      "Send recommendationId alone to run the ranking recommend answered, or optimizationPreferences without it for a fresh ranking.",
    );
  return { rest, controls };
}

function goals(value: unknown): string[] {
  const allowed = OPTIMIZATION_GOALS.join(", ");
  const hint = `Send optimizationPreferences as goals from ${allowed}, most important first, each once; e.g. ["cost", "reliability"].`;
  if (!Array.isArray(value) || value.length === 0 || value.length > OPTIMIZATION_GOALS.length)
    throw invalidControl("optimizationPreferences", `must be an array of 1 to ${OPTIMIZATION_GOALS.length} goals`, hint);
  value.forEach((goal, i) => {
    const field = `optimizationPreferences[${i}]`;
    if (!(OPTIMIZATION_GOALS as readonly unknown[]).includes(goal)) throw invalidControl(field, `must be one of: ${allowed}`, hint);
    if (value.indexOf(goal) !== i) throw invalidControl(field, `repeats "${String(goal)}"`, hint);
  });
  return value as string[];
}

function id(field: string, value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_ID_LENGTH || /[^\x21-\x7e]/.test(value))
    throw invalidControl(field, `must be an id of 1 to ${MAX_ID_LENGTH} printable characters`, `Send ${what}, unchanged.`);
  return value;
}

function invalidControl(field: string, problem: string, hint: string): AppError {
  return invalidArgument("INVALID_INPUT", `${field}: ${problem}`, hint, { field });
}
