// A capability's contract (GET .../contract) as the JSON Schema of a tool's input: types, required
// fields, enums and limits in the schema; what JSON Schema cannot carry portably in the description.
// - "At least one of a, b" (oneOfRequired) is said in words: a top-level anyOf/allOf is refused by
//   OpenAI-style function schemas, which many MCP clients hand the schema to unchanged.
// - A `format` is emitted only where JSON Schema's is no stricter than the API's (uri, date): the API
//   takes "Name <a@b.c>" as an email and a date-time without an offset, which a validating client
//   would refuse under format "email" or "date-time". The rest is described.
// The API stays the judge: it checks every call against the contract and answers INVALID_INPUT with
// the field, which the tool passes on.
import type { CapabilityFieldContract, CapabilityOperationContract } from "@agentic-api/sdk";

export type JsonSchema = Record<string, unknown>;

/** Formats whose JSON Schema meaning admits everything the API admits. */
const PORTABLE_FORMATS = new Set(["uri", "date"]);

/** What the API's own formats mean, for descriptions. */
const FORMAT_TEXT: Readonly<Record<string, string>> = {
  email: "an email address (user@host.tld, or Name <user@host.tld>)",
  uri: "an absolute http(s) URL",
  "date-time": "an ISO 8601 date and time; without an offset it is read in the field's time zone",
  date: "a date, YYYY-MM-DD",
  "iana-timezone": "an IANA time zone name, e.g. Europe/Lisbon",
  "language-tag": "a BCP 47 language tag, e.g. en or pt-BR",
  "country-code": "an ISO 3166-1 alpha-2 country code, e.g. PT",
  "currency-code": "an ISO 4217 currency code, e.g. EUR",
};

function sentence(text: string): string {
  const t = text.trim();
  return t === "" || /[.!?]$/.test(t) ? t : `${t}.`;
}

function describe(parts: Array<string | undefined>): { description?: string } {
  const text = parts
    .filter((p): p is string => p !== undefined && p.trim() !== "")
    .map(sentence)
    .join(" ");
  return text === "" ? {} : { description: text };
}

/** A string (or a string item): length, enum and format. */
function stringSchema(
  maxLength: number | undefined,
  enumValues: readonly string[] | undefined,
  format: string | undefined,
  required: boolean,
) {
  return {
    type: "string",
    ...(required ? { minLength: 1 } : {}),
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...(enumValues && enumValues.length > 0 ? { enum: [...enumValues] } : {}),
    ...(format && PORTABLE_FORMATS.has(format) ? { format } : {}),
  };
}

function numberSchema(type: "integer" | "number", min: number | undefined, max: number | undefined) {
  return { type, ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) };
}

/** The schema of an array's items, from the field's items type and item limits. */
function itemSchema(f: CapabilityFieldContract): JsonSchema {
  switch (f.itemsType) {
    case "string":
      return stringSchema(f.itemMaxLength, f.enumValues, f.format, false);
    case "integer":
    case "number":
      return numberSchema(f.itemsType, f.min, f.max);
    case "boolean":
      return { type: "boolean" };
    case "object":
      return f.fields && f.fields.length > 0 ? objectSchema(f.fields) : { type: "object" };
    default:
      return {};
  }
}

export function fieldSchema(f: CapabilityFieldContract): JsonSchema {
  const formatText = f.format ? `Format: ${FORMAT_TEXT[f.format] ?? f.format}` : undefined;
  const conditional = f.conditionallyRequired ? "Required in some combinations (see the tool's description)" : undefined;
  const notes = f.notes ?? [];
  switch (f.type) {
    case "string":
      return { ...stringSchema(f.maxLength, f.enumValues, f.format, f.required), ...describe([...notes, formatText, conditional]) };
    case "integer":
    case "number":
      return { ...numberSchema(f.type, f.min, f.max), ...describe([...notes, conditional]) };
    case "boolean":
      return { type: "boolean", ...describe([...notes, conditional]) };
    case "object": {
      if (f.fields && f.fields.length > 0) return { ...objectSchema(f.fields), ...describe([...notes, conditional]) };
      // A free-form object (a JSON Schema, say) is limited by the length of its compact JSON.
      const size = f.maxLength !== undefined ? `At most ${f.maxLength} characters as compact JSON` : undefined;
      return { type: "object", ...describe([...notes, size, conditional]) };
    }
    case "array":
      return {
        type: "array",
        items: itemSchema(f),
        // On arrays the contract's maxLength counts items.
        ...(f.maxLength !== undefined ? { maxItems: f.maxLength } : {}),
        ...describe([...notes, f.itemsType === "string" ? formatText?.replace("Format:", "Each item:") : undefined, conditional]),
      };
    default:
      return describe([...notes, "Any JSON value", conditional]);
  }
}

/** An object of `fields`: each field's schema, the required ones, nothing else. */
export function objectSchema(fields: readonly CapabilityFieldContract[]): JsonSchema {
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return {
    type: "object",
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** "Give at least one of html or text." per oneOfRequired group, for descriptions. */
export function oneOfRequiredText(op: Pick<CapabilityOperationContract, "oneOfRequired"> | undefined): string[] {
  return (op?.oneOfRequired ?? []).map((group) => `Give at least one of ${group.join(", ")}.`);
}

/** The fields an execute tool adds to the capability's own: MCP has no header to carry the key in. */
export const IDEMPOTENCY_KEY_PROPERTY: JsonSchema = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  description: "Optional. Omit it and a retry of this exact call is replayed, not paid again; a new value performs the action again.",
};

/** Input schema of an execute tool: the execute contract's fields plus idempotencyKey; unknown fields are refused, as the API does. */
export function executeInputSchema(op: CapabilityOperationContract): JsonSchema {
  const schema = objectSchema(op.fields);
  const groups = oneOfRequiredText(op);
  return {
    ...schema,
    properties: { ...(schema.properties as JsonSchema), idempotencyKey: IDEMPOTENCY_KEY_PROPERTY },
    ...describe(groups),
  };
}

/**
 * Input schema of a recommend tool: the recommend contract's fields. Other fields are allowed: the
 * router also reads the execute fields, to check the routes against the request that would run.
 */
export function recommendInputSchema(op: CapabilityOperationContract | undefined): JsonSchema {
  const schema = objectSchema(op?.fields ?? []);
  return {
    ...schema,
    additionalProperties: true,
    description: "Recommend fields; the capability's execute fields may be added so the routes are checked against that request.",
  };
}
