// Rules for contracts: field lists must agree with requiredFields / oneOfRequired /
// conditionallyRequiredFields, field descriptors must be coherent, "available" operations must be
// complete, and examples must satisfy the contract they illustrate.
import type { ScopedProblems } from "./problems";
import { resolveFields, type OperationKind } from "./contract";
import { CONTRACT_DEFAULTS_FILE, type RawContractDefaults, type RawField, type RawOperation } from "./schema";

/** Fields the shared defaults must supply to every recommend / execute operation. */
export const REQUIRED_COMMON_FIELDS: Readonly<Record<OperationKind, readonly string[]>> = {
  recommend: ["agentName", "optimizationPreferences"],
  execute: ["provider", "routeKey", "allowFallback"],
};

/** What a contract is checked against. */
export interface ContractContext {
  routes: readonly { routeKey: string; providerKey: string; priceCredits: number }[];
  /** Absent when _contract-defaults.yaml is itself invalid. */
  defaults?: RawContractDefaults | undefined;
  /** dtoName -> where it was first declared, across the whole catalog. */
  dtoNames: Map<string, string>;
}

/** Checks the shared defaults file. */
export function validateContractDefaults(defaults: RawContractDefaults, out: ScopedProblems): void {
  for (const kind of ["recommend", "execute"] as const) {
    const key = kind === "recommend" ? "recommendFields" : "executeFields";
    const fields = defaults[key];
    checkFieldList(fields, out.at([key]));
    for (const name of REQUIRED_COMMON_FIELDS[kind]) {
      if (!fields.some((f) => f.name === name)) out.add([key], `must define "${name}" (every ${kind} contract has it)`);
    }
  }
}

/** Checks one capability's contract; `out` is scoped to the contract object. */
export function validateContract(
  contract: { recommend?: RawOperation | undefined; execute?: RawOperation | undefined },
  ctx: ContractContext,
  out: ScopedProblems,
): void {
  if (contract.recommend) validateOperation(contract.recommend, "recommend", ctx, out.at(["recommend"]));
  if (contract.execute) validateOperation(contract.execute, "execute", ctx, out.at(["execute"]));
}

function validateOperation(op: RawOperation, kind: OperationKind, ctx: ContractContext, out: ScopedProblems): void {
  const common = ctx.defaults ? (kind === "recommend" ? ctx.defaults.recommendFields : ctx.defaults.executeFields) : [];
  op.fields.forEach((f, i) => {
    if (common.some((c) => c.name === f.name)) {
      out.add(["fields", i, "name"], `"${f.name}" is added to every ${kind} contract by ${CONTRACT_DEFAULTS_FILE}; do not declare it here`);
    }
  });
  checkFieldList(op.fields, out.at(["fields"]));

  const all = ctx.defaults ? resolveFields(op, kind, ctx.defaults) : op.fields;
  const names = new Set(all.map((f) => f.name));
  const required = new Set<string>();
  op.requiredFields.forEach((name, i) => {
    if (!names.has(name)) out.add(["requiredFields", i], `"${name}" is not in fields`);
    if (required.has(name)) out.add(["requiredFields", i], `"${name}" is listed twice`);
    required.add(name);
  });
  op.oneOfRequired.forEach((group, g) =>
    group.forEach((name, i) => {
      if (!names.has(name)) out.add(["oneOfRequired", g, i], `"${name}" is not in fields`);
      if (required.has(name)) out.add(["oneOfRequired", g, i], `"${name}" is already in requiredFields`);
    }),
  );
  op.conditionallyRequiredFields.forEach((name, i) => {
    const field = all.find((f) => f.name === name);
    if (!field) out.add(["conditionallyRequiredFields", i], `"${name}" is not in fields`);
    else if (!field.notes?.length) out.add(["conditionallyRequiredFields", i], `"${name}" needs notes that say when it is required`);
    if (required.has(name)) out.add(["conditionallyRequiredFields", i], `"${name}" is already in requiredFields`);
  });

  if (op.dtoName) {
    const where = `${out.file} (${kind})`;
    const first = ctx.dtoNames.get(op.dtoName);
    if (first) out.add(["dtoName"], `"${op.dtoName}" is already used by ${first}`);
    else ctx.dtoNames.set(op.dtoName, where);
  }

  if (op.status === "available") {
    if (!op.dtoName) out.add(["dtoName"], "an available operation needs a dtoName");
    if (!op.requestExample) out.add(["requestExample"], "an available operation needs a requestExample");
    if (kind === "execute" && !op.responseExample) out.add(["responseExample"], "an available execute operation needs a responseExample");
  }

  if (op.requestExample) {
    checkObject(all, [...required], op.oneOfRequired, op.requestExample, out.at(["requestExample"]));
  }
  if (kind === "execute" && op.responseExample) checkResponseExample(op.responseExample, ctx, out.at(["responseExample"]));
}

/** The example response must come from one of this capability's routes, at that route's price. */
function checkResponseExample(example: Record<string, unknown>, ctx: ContractContext, out: ScopedProblems): void {
  const route = ctx.routes.find((r) => r.routeKey === example["routeKey"]);
  if (!route) {
    out.add(
      ["routeKey"],
      `"${String(example["routeKey"])}" is not a route of this capability (${ctx.routes.map((r) => r.routeKey).join(", ")})`,
    );
    return;
  }
  if (example["provider"] !== route.providerKey) out.add(["provider"], `must be "${route.providerKey}", the provider of ${route.routeKey}`);
  if (example["creditsCharged"] !== route.priceCredits)
    out.add(["creditsCharged"], `must be ${route.priceCredits}, the price of ${route.routeKey}`);
}

/** Coherence of field descriptors, recursively. */
function checkFieldList(fields: readonly RawField[], out: ScopedProblems): void {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.name)) out.add([i, "name"], `duplicate field "${f.name}"`);
    seen.add(f.name);
    checkField(f, out.at([i]));
  });
}

function checkField(f: RawField, out: ScopedProblems): void {
  const isArray = f.type === "array";
  const stringLike = f.type === "string" || (isArray && f.itemsType === "string");
  const objectLike = f.type === "object" || (isArray && f.itemsType === "object");
  if (isArray && !f.itemsType) out.add(["itemsType"], "an array field needs itemsType");
  if (!isArray && f.itemsType) out.add(["itemsType"], `only array fields have itemsType (this one is ${f.type})`);
  if (f.fields && !objectLike) out.add(["fields"], "only object fields (or arrays of objects) have nested fields");
  if (f.requiredFields) {
    if (!f.fields) out.add(["requiredFields"], "requiredFields needs nested fields");
    f.requiredFields.forEach((name, i) => {
      if (f.fields && !f.fields.some((c) => c.name === name)) out.add(["requiredFields", i], `"${name}" is not a nested field`);
    });
  }
  if (f.enumValues) {
    if (!stringLike) out.add(["enumValues"], "only string fields (or arrays of strings) have enumValues");
    if (new Set(f.enumValues).size !== f.enumValues.length) out.add(["enumValues"], "enumValues has duplicates");
  }
  if (f.format && !stringLike) out.add(["format"], "only string fields (or arrays of strings) have a format");
  if (f.maxLength !== undefined && f.type !== "string" && f.type !== "object" && !isArray)
    out.add(["maxLength"], "only string, array and object fields have maxLength");
  if (f.maxLength !== undefined && f.type === "object" && f.fields)
    out.add(["maxLength"], "an object with nested fields is bounded by them; maxLength is for free-form objects");
  if (f.itemMaxLength !== undefined && !(isArray && f.itemsType === "string"))
    out.add(["itemMaxLength"], "only arrays of strings have itemMaxLength");
  const numeric = f.type === "number" || f.type === "integer";
  if ((f.min !== undefined || f.max !== undefined) && !numeric)
    out.add([f.min !== undefined ? "min" : "max"], "only number and integer fields have min/max");
  if (f.min !== undefined && f.max !== undefined && f.min > f.max) out.add(["max"], `max (${f.max}) is below min (${f.min})`);
  if (f.fields) checkFieldList(f.fields, out.at(["fields"]));
}

/** An example object must only use declared fields, include the required ones, and match their types. */
function checkObject(
  fields: readonly RawField[],
  required: readonly string[],
  oneOf: readonly (readonly string[])[],
  value: unknown,
  out: ScopedProblems,
): void {
  if (!isPlainObject(value)) {
    out.add([], "must be an object");
    return;
  }
  for (const key of Object.keys(value)) {
    const field = fields.find((f) => f.name === key);
    if (!field) out.add([key], `"${key}" is not a field of this contract`);
    else checkValue(field.type, field, value[key], out.at([key]));
  }
  for (const name of required) if (!(name in value)) out.add([], `missing required field "${name}"`);
  for (const group of oneOf) if (!group.some((n) => n in value)) out.add([], `needs one of ${group.join(", ")}`);
}

function checkValue(type: string, f: RawField, value: unknown, out: ScopedProblems, isItem = false): void {
  const fail = (expected: string) => out.add([], `expected ${expected}, got ${JSON.stringify(value)}`);
  switch (type) {
    case "string":
      if (typeof value !== "string") return fail("a string");
      if (f.enumValues && !f.enumValues.includes(value)) out.add([], `"${value}" is not one of ${f.enumValues.join(", ")}`);
      if (!isItem && f.maxLength !== undefined && value.length > f.maxLength) out.add([], `longer than maxLength ${f.maxLength}`);
      if (isItem && f.itemMaxLength !== undefined && value.length > f.itemMaxLength)
        out.add([], `longer than itemMaxLength ${f.itemMaxLength}`);
      return;
    case "number":
    case "integer":
      if (typeof value !== "number" || (type === "integer" && !Number.isInteger(value))) return fail(`an ${type}`);
      if (f.min !== undefined && value < f.min) out.add([], `below min ${f.min}`);
      if (f.max !== undefined && value > f.max) out.add([], `above max ${f.max}`);
      return;
    case "boolean":
      if (typeof value !== "boolean") fail("a boolean");
      return;
    case "array":
      if (!Array.isArray(value)) return fail("an array");
      if (f.maxLength !== undefined && value.length > f.maxLength) out.add([], `more than maxLength ${f.maxLength} items`);
      value.forEach((item, i) => checkValue(f.itemsType ?? "unknown", f, item, out.at([i]), true));
      return;
    case "object":
      if (f.fields) checkObject(f.fields, f.requiredFields ?? [], [], value, out);
      else if (!isPlainObject(value)) fail("an object");
      else if (!isItem && f.maxLength !== undefined && JSON.stringify(value).length > f.maxLength)
        out.add([], `longer than maxLength ${f.maxLength} as JSON`);
      return;
    default:
      return;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
