// Reads the recommend body (free-form JSON): agentName, optimizationPreferences, feature asks and
// the execute fields a route may need. Unknown fields are accepted, and so are execute fields that
// share a feature's name; wrong types of the fields recommend defines are InputErrors.
import { AppError, normalizeAgentName } from "@agentic/platform/core";
import type { OperationContract } from "@agentic/proto/catalog/v1";
import type { RecommendRequest } from "@agentic/proto/router/v1";
import { GOALS, isGoal, type Goal } from "./goals";

/** A problem with one field of the body: INVALID_ARGUMENT / INVALID_INPUT, the field in its details. */
export class InputError extends AppError {
  constructor(
    /** Path of the offending field, e.g. "optimizationPreferences[1]". */
    readonly field: string,
    message: string,
    /** What to send instead; names the field. */
    hint: string,
  ) {
    super("invalid_argument", "INVALID_INPUT", message, hint, { field });
    this.name = "InputError";
  }
}

/** Each of `fields` of the `message` (its name, e.g. "RecommendRequest") is set: else INVALID_INPUT naming the first missing. */
export function requireFields<T, K extends keyof T & string>(req: T, fields: readonly K[], message: string): void {
  for (const field of fields) {
    if (!req[field]) throw new InputError(field, `${field} is required`, `Set ${field} on the ${message}.`);
  }
}

/** The request names its user and the capability; each is required. */
export function checkRequestKeys(req: Pick<RecommendRequest, "userId" | "domainKey" | "capabilityId">): void {
  requireFields(req, ["userId", "domainKey", "capabilityId"], "RecommendRequest");
}

/** The parts of the body recommend reads before it knows the capability's routes. */
export interface RecommendInput {
  agentName?: string;
  /** Goals in the caller's order; undefined when the body names none (defaults then apply). */
  preferences?: Goal[];
  /** Every field of the body, as sent (execute fields included). */
  fields: Readonly<Record<string, unknown>>;
}

/**
 * The body as recommend reads it: the request's explicit optimization_preferences (the recommend
 * body's field, or the ones an execute carries) replace the body's own when given, so they win over
 * anything remembered; they are checked like the body's field.
 */
export function withExplicitPreferences(
  body: Readonly<Record<string, unknown>> | undefined,
  explicit: readonly string[],
): Readonly<Record<string, unknown>> | undefined {
  return explicit.length > 0 ? { ...body, optimizationPreferences: [...explicit] } : body;
}

/** max_price_credits: a whole number of credits, at least 0; undefined when not set. */
export function checkMaxPriceCredits(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InputError(
      "maxPriceCredits",
      "maxPriceCredits must be a whole number of credits, at least 0",
      "Send maxPriceCredits as an integer number of credits (1000 credits = 1 USD), or leave it out.",
    );
  }
  return value;
}

/** Longest agentName accepted (the contract default; it keys the per-agent preference memory). */
export const MAX_AGENT_NAME_LENGTH = 100;

/** Validates the fields recommend itself defines. An empty or absent body is valid. */
export function parseRecommendInput(body: Readonly<Record<string, unknown>> | undefined): RecommendInput {
  const fields = body ?? {};
  const input: RecommendInput = { fields };

  const agentName = fields.agentName;
  if (agentName !== undefined && agentName !== null) {
    // Normalized (case, width, invisible characters), so one agent has one preference memory and one set of policies.
    const name = typeof agentName === "string" ? normalizeAgentName(agentName) : "";
    if (typeof agentName !== "string" || name === "" || name.length > MAX_AGENT_NAME_LENGTH) {
      throw new InputError(
        "agentName",
        `agentName must be a string of 1 to ${MAX_AGENT_NAME_LENGTH} characters`,
        `Send agentName as a string of 1 to ${MAX_AGENT_NAME_LENGTH} characters, e.g. "alpha_agent", or leave it out.`,
      );
    }
    input.agentName = name;
  }

  const prefs = fields.optimizationPreferences;
  if (prefs !== undefined && prefs !== null) {
    const allowed = GOALS.join(", ");
    if (!Array.isArray(prefs)) {
      throw new InputError(
        "optimizationPreferences",
        "optimizationPreferences must be an array of goals",
        `Send optimizationPreferences as an ordered array of goals from: ${allowed}; e.g. ["cost", "reliability"].`,
      );
    }
    const seen = new Set<Goal>();
    prefs.forEach((goal: unknown, i) => {
      const field = `optimizationPreferences[${i}]`;
      if (!isGoal(goal)) {
        throw new InputError(field, `${field} is not a known goal`, `${field} must be one of: ${allowed}.`);
      }
      if (seen.has(goal)) {
        throw new InputError(
          field,
          `${field} repeats "${goal}"`,
          `Remove ${field}: name each goal at most once in optimizationPreferences.`,
        );
      }
      seen.add(goal);
    });
    if (seen.size > 0) input.preferences = [...seen];
  }
  return input;
}

/**
 * Features the caller asks for: boolean fields named after one of `knownFeatures`, set to true
 * (e.g. tracking: true); false asks nothing. Any other value under a feature's name is an execute
 * field of the same name (e.g. html: "<p>hi</p>" for email.send) and is no ask: recommend ignores it.
 */
export function featureAsks(fields: Readonly<Record<string, unknown>>, knownFeatures: Iterable<string>): string[] {
  return [...new Set(knownFeatures)].sort().filter((feature) => fields[feature] === true);
}

/** A string field a route may need (e.g. inboxId); undefined when absent or empty, InputError when not a string. */
export function stringField(fields: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new InputError(name, `${name} must be a string`, `Send ${name} as a string, or leave it out.`);
  return value.trim() === "" ? undefined : value;
}

/** The JSON type a scalar field of the recommend contract must have. */
const JSON_TYPE: Readonly<Record<string, (v: unknown) => boolean>> = {
  boolean: (v) => typeof v === "boolean",
  string: (v) => typeof v === "string",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  array: (v) => Array.isArray(v),
};

/**
 * Fields the capability's recommend contract declares must have its type (e.g. tracking: "yes"
 * where it says boolean is refused, not silently read as no ask). Fields it does not declare are
 * execute fields and stay free-form.
 */
export function checkDeclaredTypes(fields: Readonly<Record<string, unknown>>, contract: OperationContract | undefined): void {
  for (const f of contract?.fields ?? []) {
    const value = fields[f.name];
    const isType = JSON_TYPE[f.type];
    if (value === undefined || value === null || !isType || isType(value)) continue;
    throw new InputError(
      f.name,
      `${f.name} must be ${f.type === "integer" ? "an integer" : `a ${f.type}`}`,
      `Send ${f.name} as the recommend contract declares it (${f.type}), or leave it out.`,
    );
  }
}
