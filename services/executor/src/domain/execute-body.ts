// Splits an execute body into the capability input and the routing controls (provider, routeKey,
// allowFallback; the plan controls of plan-controls.ts may sit beside a wrapper too), unwrapping the {"input": {...}} form some clients send, and drops nulls (a null
// optional field means "not given").
import type { OperationContract } from "@agentic/proto/catalog/v1";
import { PLAN_CONTROLS } from "./plan-controls";

/** The routing controls every execute contract carries (see the catalog's _contract-defaults.yaml). */
export const ROUTING_CONTROLS = ["provider", "routeKey", "allowFallback"] as const;
const CONTROL_SET = new Set<string>(ROUTING_CONTROLS);
/** What may sit beside an {"input": {...}} wrapper. */
const BESIDE_WRAPPER = new Set<string>([...ROUTING_CONTROLS, ...PLAN_CONTROLS]);

/** The wrapper key tolerated when no capability field is at the top level. */
const WRAPPER = "input";

/** Thrown when a key sits both inside the wrapper and at the top level. */
export class BodyShapeError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads the execute body into the flat body to validate against the whole execute contract: the
 * capability fields plus any routing controls, with null values removed. The `input` wrapper is
 * unwrapped only when it is an object, the contract has no object field of that name, and nothing
 * but routing controls sits beside it.
 */
export function readExecuteBody(body: Readonly<Record<string, unknown>>, contract: OperationContract): Record<string, unknown> {
  const declaresInput = contract.fields.some((f) => f.name === WRAPPER);
  const wrapped = body[WRAPPER];
  const besideWrapper = Object.keys(body).filter((k) => k !== WRAPPER);
  const unwrap = !declaresInput && isPlainObject(wrapped) && besideWrapper.every((k) => BESIDE_WRAPPER.has(k));
  if (!unwrap) return withoutNulls(body);

  const inner = wrapped as Record<string, unknown>;
  for (const key of besideWrapper) {
    if (key in inner) throw new BodyShapeError(key, `${key}: given both inside 'input' and at the top level`);
  }
  return withoutNulls({ ...inner, ...pick(body, besideWrapper) });
}

/** The routing controls of a validated flat body, and the capability input without them. */
export function splitControls(flat: Readonly<Record<string, unknown>>): {
  input: Record<string, unknown>;
  provider?: string;
  routeKey?: string;
  allowFallback?: boolean;
} {
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) if (!CONTROL_SET.has(k)) input[k] = v;
  return {
    input,
    ...(typeof flat.provider === "string" ? { provider: flat.provider } : {}),
    ...(typeof flat.routeKey === "string" ? { routeKey: flat.routeKey } : {}),
    ...(typeof flat.allowFallback === "boolean" ? { allowFallback: flat.allowFallback } : {}),
  };
}

function pick(obj: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, obj[k]]));
}

/** Drops null values at every depth of objects (array items are kept: a null item is an error). */
function withoutNulls(obj: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === null) continue;
    out[k] = isPlainObject(v) ? withoutNulls(v) : Array.isArray(v) ? v.map((item) => (isPlainObject(item) ? withoutNulls(item) : item)) : v;
  }
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
