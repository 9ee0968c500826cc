// The document's view of zod schemas: a route's request (routes/requests/) and the answers (schemas/),
// as JSON Schema 2020-12, OpenAPI 3.1's dialect, through zod's own z.toJSONSchema.
import { z } from "zod";
import type { JsonObject } from "./document";

/**
 * The JSON Schema of `schema`, without `$schema`, without the safe-integer bounds zod gives every integer,
 * and with an open object written as the document writes it (`additionalProperties: true`, no empty `properties`).
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "input"): JsonObject {
  const json = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonObject;
  delete json.$schema;
  return asTheDocumentWritesIt(json);
}

const COMPONENT_SCHEMAS = "#/components/schemas/";

/**
 * components.schemas from zod schemas, by name: one of them used inside another is a `$ref` to its
 * component (with the description of its use beside it, when it has one). Answers: their output.
 */
export function componentSchemasOf(schemas: Record<string, z.ZodType>): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const json = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "output",
    unrepresentable: "any",
    uri: (id) => `${COMPONENT_SCHEMAS}${id}`,
  }) as { schemas: Record<string, JsonObject> };
  return Object.fromEntries(
    Object.entries(json.schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, asTheDocumentWritesIt(schema)]),
  );
}

const isEmptyObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * `{anyOf: [{type: "number", minimum: 0}, {type: "null"}]}` (zod's nullable of a constrained value) as
 * `{type: ["number", "null"], minimum: 0}`: the same values (bounds apply to numbers only), written as the
 * document writes a nullable field.
 */
function nullableAsTypeList(node: JsonObject): void {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return;
  const [value, nothing] = options as JsonObject[];
  if (typeof value?.type !== "string" || value.type === "null" || nothing?.type !== "null" || Object.keys(nothing).length !== 1) return;
  delete node.anyOf;
  Object.assign(node, { ...value, type: [value.type, "null"] });
}

function asTheDocumentWritesIt(node: JsonObject): JsonObject {
  nullableAsTypeList(node);
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  if (node.type === "object" && isEmptyObject(node.additionalProperties)) node.additionalProperties = true;
  if (node.type === "object" && isEmptyObject(node.properties)) delete node.properties;
  for (const value of Object.values(node)) {
    if (typeof value === "object" && value !== null) asTheDocumentWritesIt(value as JsonObject);
  }
  return node;
}

/**
 * The parameter object of `field`: the value a route reads (a query string parsed into an integer is
 * documented as the integer), or the text sent where that value is computed (a date read into a Date);
 * the schema's description and example move up to the parameter, where OpenAPI puts them.
 */
export function parameterOf(name: string, location: "path" | "query" | "header", field: z.ZodType): JsonObject {
  const output = jsonSchemaOf(field, "output");
  const { description, example, ...schema } = output.type === undefined ? jsonSchemaOf(field, "input") : output;
  return {
    name,
    in: location,
    required: location === "path" || !field.safeParse(undefined).success,
    ...(description === undefined ? {} : { description }),
    schema,
    ...(example === undefined ? {} : { example }),
  };
}
