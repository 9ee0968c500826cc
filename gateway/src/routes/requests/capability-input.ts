// The JSON body of capability calls (recommend, execute, quote), declared once: a JSON object whose
// fields the capability's contract names (the executor and the router check them), refused here when it
// is not an object, carries a prototype key or nests too deeply; recommend also reads two fields itself.
// The routes parse with these objects and the document's CapabilityInput and RecommendRequest are built
// from them.
import { z } from "zod";
import { hinted } from "../../http/request-schema";
import { agentNameValue } from "./values";

/**
 * Deepest nesting accepted (the body object itself is level 1). Contracts nest a few levels; a
 * small body can still nest thousands deep, which overflows the protobuf Struct encoding.
 */
const MAX_BODY_DEPTH = 32;

const NOT_AN_OBJECT = "must be a JSON object";
const RESERVED = "is a reserved name (__proto__, constructor and prototype are refused anywhere in a body)";
const TOO_DEEP = `must not nest objects or arrays more than ${MAX_BODY_DEPTH} levels deep`;

/** The hint of each refusal of a body as a whole. */
const BODY_HINTS: Record<string, string> = {
  [NOT_AN_OBJECT]: "Send the capability's input as a JSON object; see its contract.",
  [RESERVED]: "Remove the field; see the capability's contract for the fields it takes.",
  [TOO_DEEP]: "Send a flatter JSON object; see the capability's contract.",
};

/** Whether `value` nests objects or arrays more than `max` levels deep; iterative, so any depth is safe. */
function nestedDeeperThan(value: object, max: number): boolean {
  const stack: Array<[object, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child !== "object" || child === null) continue;
      if (depth + 1 > max) return true;
      stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Keys that would reach an object's prototype once copied into a plain object downstream. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The path of the first prototype key anywhere in `value` (JSON.parse keeps `__proto__` as an own key), else undefined. */
function prototypeKey(value: object): string | undefined {
  const stack: Array<[object, string]> = [[value, ""]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, at] = item;
    for (const key of Object.keys(node)) {
      const here = Array.isArray(node) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
      if (!Array.isArray(node) && PROTOTYPE_KEYS.has(key)) return here;
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) stack.push([child, here]);
    }
  }
  return undefined;
}

/** A body refusal as zod reports it: the body as a whole (no path) or the prototype key's path, as one segment. */
function checkBody(body: unknown, ctx: z.core.$RefinementCtx): void {
  const refuse = (message: string, path: string[] = []): void => void ctx.issues.push({ code: "custom", message, input: body, path });
  if (typeof body !== "object" || body === null || Array.isArray(body)) return refuse(NOT_AN_OBJECT);
  const polluting = prototypeKey(body);
  if (polluting) return refuse(RESERVED, [polluting]);
  if (nestedDeeperThan(body, MAX_BODY_DEPTH)) refuse(TOO_DEEP);
}

/** A capability body reading `fields` itself (every other field passes on): the body checks first, then the fields. */
function capabilityBody<S extends Record<string, z.ZodType>>(fields: S, description: string) {
  const body = z
    .preprocess((input, ctx) => {
      checkBody(input, ctx);
      return input;
    }, z.looseObject(fields))
    .meta({ description });
  return hinted(body, (issue) => BODY_HINTS[issue.message] ?? "Send the capability's input as a JSON object; see its contract.");
}

/** Execute's and quote's body: any object the contract describes (the executor checks its fields). */
export const capabilityInput = capabilityBody(
  {},
  "Capability-specific request body. Its exact fields are read from the capability contract (`GET .../contract`).",
);

/** The least a recommend's maxPriceCredits may be (0: only free routes are executable now). */
const LEAST_MAX_PRICE = 0;
const MAX_PRICE_PROBLEM = `must be a whole number of credits, at least ${LEAST_MAX_PRICE}`;

/** The agent the call is for, normalized; a non-string is left for the router's contract check. */
const agentName = hinted(
  z
    .preprocess((value) => (typeof value === "string" ? value : undefined), agentNameValue().optional())
    .meta({ description: "The calling agent, as the Agent-Name header names it (both naming different agents is a 400)." }),
  "Send the calling agent's name, e.g. alpha_agent.",
);

const maxPriceCredits = hinted(
  z
    .number({ error: MAX_PRICE_PROBLEM })
    .int({ error: MAX_PRICE_PROBLEM })
    .min(LEAST_MAX_PRICE, { error: MAX_PRICE_PROBLEM })
    .optional()
    .meta({
      description:
        "Extension of this service: the most a route may cost, in credits (1000 credits = 1 USD); dearer routes are marked not executable now (`unavailableReasonCode: over_max_price`).",
    }),
  "Send maxPriceCredits as an integer number of credits (1000 credits = 1 USD), or leave it out.",
);

/** The fields of recommendBody this service reads, by name (also what a refusal's field is looked up in). */
export const RECOMMEND_FIELDS = { agentName, maxPriceCredits };

/** Recommend's body: the contract's recommend fields; `agentName` and `maxPriceCredits` are read here too (null reads as left out). */
export const recommendBody = capabilityBody(
  RECOMMEND_FIELDS,
  "Capability-specific recommend input: the contract's `recommend` fields. `agentName` and `maxPriceCredits` are read by this service as well.",
);
