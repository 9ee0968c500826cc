// Checks an execute body against the capability's execute contract: unknown fields, required fields,
// oneOfRequired groups, types, enums, lengths, ranges, item types, nested object fields and string
// formats. Pure; the first problem found is reported with the JSON path of the field.
import type { FieldContract, OperationContract } from "@agentic/proto/catalog/v1";
import { isPlainObject } from "./execute-body";
import { formatProblem } from "./formats";

/** One contract violation: `field` is a path such as `to`, `cc[2]` or `messages[0].role`. */
export interface InputProblem {
  field: string;
  problem: string;
}

/** The first violation of `contract` by `body`, or undefined when the body satisfies it. */
export function validateInput(body: Readonly<Record<string, unknown>>, contract: OperationContract): InputProblem | undefined {
  return (
    checkObject(body, contract.fields, "") ??
    checkOneOf(
      body,
      contract.oneOfRequired.map((g) => g.fields),
    )
  );
}

function checkOneOf(body: Readonly<Record<string, unknown>>, groups: readonly (readonly string[])[]): InputProblem | undefined {
  for (const group of groups) {
    if (!group.some((name) => body[name] !== undefined)) {
      return { field: group.join("|"), problem: `give at least one of ${group.join(", ")}` };
    }
  }
  return undefined;
}

function checkObject(value: Readonly<Record<string, unknown>>, fields: readonly FieldContract[], prefix: string): InputProblem | undefined {
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(value)) {
    if (!byName.has(key)) {
      const known = fields.map((f) => f.name).join(", ");
      return { field: path(prefix, key), problem: `unknown field; allowed fields: ${known}` };
    }
  }
  for (const f of fields) {
    const v = value[f.name];
    if (v === undefined) {
      if (f.required) return { field: path(prefix, f.name), problem: "is required" };
      continue;
    }
    const problem = checkValue(v, f, path(prefix, f.name));
    if (problem) return problem;
  }
  return undefined;
}

function checkValue(value: unknown, f: FieldContract, at: string): InputProblem | undefined {
  switch (f.type) {
    case "string":
      return checkString(value, f, at, f.maxLength);
    case "integer":
    case "number":
      return checkNumber(value, f, at);
    case "boolean":
      return typeof value === "boolean" ? undefined : { field: at, problem: "must be true or false" };
    case "object":
      if (!isPlainObject(value)) return { field: at, problem: "must be an object" };
      if (f.fields.length > 0) return checkObject(value, f.fields, at);
      // A free-form object (a JSON Schema, say) is capped by the length of its JSON text.
      if (f.maxLength !== undefined && JSON.stringify(value).length > f.maxLength)
        return { field: at, problem: `must be at most ${f.maxLength} characters as JSON` };
      return undefined;
    case "array":
      return checkArray(value, f, at);
    default:
      // "unknown": any JSON value.
      return undefined;
  }
}

function checkArray(value: unknown, f: FieldContract, at: string): InputProblem | undefined {
  if (!Array.isArray(value)) return { field: at, problem: `must be an array${f.itemsType ? ` of ${f.itemsType}s` : ""}` };
  // On arrays maxLength bounds the number of items.
  if (f.maxLength !== undefined && value.length > f.maxLength) return { field: at, problem: `must have at most ${f.maxLength} items` };
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    const itemAt = `${at}[${i}]`;
    let problem: InputProblem | undefined;
    switch (f.itemsType) {
      case "string":
        // maxLength counts items here; each item's length is capped by itemMaxLength.
        problem = checkString(item, f, itemAt, f.itemMaxLength);
        break;
      case "integer":
      case "number":
        problem = checkNumber(item, f, itemAt);
        break;
      case "boolean":
        problem = typeof item === "boolean" ? undefined : { field: itemAt, problem: "must be true or false" };
        break;
      case "object":
        if (!isPlainObject(item)) problem = { field: itemAt, problem: "must be an object" };
        else if (f.fields.length > 0) problem = checkObject(item, f.fields, itemAt);
        break;
      default:
        problem = undefined;
    }
    if (problem) return problem;
  }
  return undefined;
}

function checkString(value: unknown, f: FieldContract, at: string, maxLength: number | undefined): InputProblem | undefined {
  if (typeof value !== "string") return { field: at, problem: "must be a string" };
  // Control characters reach providers' headers and addresses (a NUL or CR/LF can split them): text
  // may hold tabs and line breaks, a formatted value (address, URL, id) none at all.
  if ((f.format ? ANY_CONTROL : CONTROL_BUT_WHITESPACE).test(value)) {
    return {
      field: at,
      problem: f.format
        ? "must not contain control characters or line breaks"
        : "must not contain control characters (tabs and line breaks are fine)",
    };
  }
  if (f.required && value.trim().length === 0) return { field: at, problem: "must not be empty" };
  if (maxLength !== undefined && value.length > maxLength)
    return { field: at, problem: `must be at most ${maxLength} characters (got ${value.length})` };
  if (f.enumValues.length > 0 && !f.enumValues.includes(value)) return { field: at, problem: `must be one of ${f.enumValues.join(", ")}` };
  if (f.format) {
    const problem = formatProblem(f.format, value);
    if (problem) return { field: at, problem };
  }
  return undefined;
}

const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function checkNumber(value: unknown, f: FieldContract, at: string): InputProblem | undefined {
  const integer = f.type === "integer" || f.itemsType === "integer";
  if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    return { field: at, problem: integer ? "must be an integer" : "must be a number" };
  }
  if (f.min !== undefined && value < f.min) return { field: at, problem: `must be at least ${f.min}` };
  if (f.max !== undefined && value > f.max) return { field: at, problem: `must be at most ${f.max}` };
  return undefined;
}

function path(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}
