// Small builders of the document's JSON Schemas: typed fields, closed objects, references, and the
// enumerations several schemas share.

import type { JsonObject, SchemaName } from "./document";

export const RECORD_STATUSES = ["live", "pending"];
export const CAPABILITY_STATUSES = ["live", "recommend_only", "planned", "pending"];
export const CONTRACT_STATUSES = ["available", "partial", "unavailable"];
export const ROUTE_MODES = ["managed", "byo", "redirect"];
export const FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object", "unknown"];
export const EXECUTION_STATES = ["claimed", "running", "succeeded", "failed", "outcome_unknown"];
export const HOLD_STATES = ["held", "captured", "released", "expired"];
export const FIELD_FORMATS = ["email", "uri", "date-time", "date", "iana-timezone", "language-tag", "country-code", "currency-code"];

export const BEARER = [{ bearerAuth: [] }];
export const PUBLIC: JsonObject[] = [];
export const JSON_MEDIA = "application/json";

// ---------------------------------------------------------------------------------------------
// Schema helpers

export interface Field {
  schema: JsonObject;
  required: boolean;
}

export const ref = (name: SchemaName): JsonObject => ({ $ref: `#/components/schemas/${name}` });
export const req = (schema: JsonObject): Field => ({ schema, required: true });
export const opt = (schema: JsonObject): Field => ({ schema, required: false });

export function withDescription(schema: JsonObject, description?: string): JsonObject {
  return description === undefined ? schema : { ...schema, description };
}

export const str = (description?: string, extra: JsonObject = {}): JsonObject => withDescription({ type: "string", ...extra }, description);
export const nullableStr = (description?: string): JsonObject => withDescription({ type: ["string", "null"] }, description);
export const int = (description?: string, extra: JsonObject = {}): JsonObject =>
  withDescription({ type: "integer", ...extra }, description);
export const num = (description?: string, extra: JsonObject = {}): JsonObject => withDescription({ type: "number", ...extra }, description);
export const bool = (description?: string, extra: JsonObject = {}): JsonObject =>
  withDescription({ type: "boolean", ...extra }, description);
export const oneOfValues = (values: string[], description?: string): JsonObject =>
  withDescription({ type: "string", enum: values }, description);
export const arrayOf = (items: JsonObject, description?: string, extra: JsonObject = {}): JsonObject =>
  withDescription({ type: "array", items, ...extra }, description);
export const strings = (description?: string): JsonObject => arrayOf({ type: "string" }, description);
export const freeForm = (description?: string): JsonObject => withDescription({ type: "object", additionalProperties: true }, description);

/** An object schema; closed (`additionalProperties: false`) unless `open` is set. */
export function objectSchema(
  description: string,
  fields: Record<string, Field>,
  options: { open?: boolean; examples?: unknown[] } = {},
): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = field.schema;
    if (field.required) required.push(name);
  }
  return {
    type: "object",
    description,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: options.open === true,
    ...(options.examples ? { examples: options.examples } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// components.schemas

export const routeMode = (description?: string) => oneOfValues(ROUTE_MODES, description);
export const contractStatus = (description?: string) => oneOfValues(CONTRACT_STATUSES, description);
