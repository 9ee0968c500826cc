// What the document's parts share: the enumerations several schemas use, the security requirements,
// the JSON media type, and the two JSON Schema builders the paths use (a `$ref` to a component and an
// array of one). The schemas themselves are declared with zod (schemas/, routes/requests/).

import type { JsonObject, SchemaName } from "./document";

export const CONTRACT_STATUSES = ["available", "partial", "unavailable"];
export const ROUTE_MODES = ["managed", "byo", "redirect"];
export const FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object", "unknown"];
export const EXECUTION_STATES = ["claimed", "running", "succeeded", "failed", "outcome_unknown"];
export const HOLD_STATES = ["held", "captured", "released", "expired"];
export const FIELD_FORMATS = ["email", "uri", "date-time", "date", "iana-timezone", "language-tag", "country-code", "currency-code"];

export const BEARER = [{ bearerAuth: [] }];
export const PUBLIC: JsonObject[] = [];
export const JSON_MEDIA = "application/json";

export const ref = (name: SchemaName): JsonObject => ({ $ref: `#/components/schemas/${name}` });

export const arrayOf = (items: JsonObject, description?: string): JsonObject => ({
  type: "array",
  items,
  ...(description === undefined ? {} : { description }),
});
