// Test helper: validates response bodies against the response schemas of an OpenAPI 3.1
// document (ajv, JSON Schema 2020-12, strict mode, with formats). Test-only: ajv is a root
// devDependency, so this lives outside src/ and never reaches dist.

import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { buildOpenApiDocument } from "../src/openapi/openapi";
import { BASE_PATH } from "./harness";

/**
 * Checks one response. `method` is case-insensitive, `pathTemplate` is a key of `paths`
 * (e.g. `/domains/{domainKey}`), `status` an HTTP status. Returns the problems found, empty when
 * the body matches the documented schema.
 */
export type ResponseValidator = (method: string, pathTemplate: string, status: number, body: unknown) => string[];

/** `$id` under which the document is registered with ajv. */
const DOCUMENT_ID = "urn:agentic-api:openapi";

/** Top-level OpenAPI fields, declared to ajv as annotation keywords so the document compiles in strict mode. */
const OPENAPI_ROOT_KEYWORDS = [
  "openapi",
  "info",
  "jsonSchemaDialect",
  "servers",
  "paths",
  "webhooks",
  "components",
  "security",
  "tags",
  "externalDocs",
];

type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const escapePointer = (segment: string): string => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Creates an ajv instance (2020-12, strict, all errors, formats) holding `doc`, so that any JSON
 * pointer into the document (`urn:agentic-api:openapi#/components/schemas/X`) can be compiled.
 */
export function createDocumentAjv(doc: object): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const keyword of OPENAPI_ROOT_KEYWORDS) ajv.addKeyword(keyword);
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID });
  return ajv;
}

/** Compiles the schema at `pointer` (a JSON pointer into the document, starting with `/`). */
export function compileAt(ajv: Ajv2020, pointer: string): ValidateFunction {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate as ValidateFunction;
}

/** Formats ajv errors as `path: message` lines. */
export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === "" ? "(root)" : e.instancePath;
    const extra = e.keyword === "additionalProperties" ? ` '${String(e.params.additionalProperty)}'` : "";
    return `${where}: ${e.message ?? e.keyword}${extra}`;
  });
}

/** Follows a local `$ref` chain from `pointer`; returns the final object and its pointer. */
function resolveLocal(doc: Json, pointer: string): { node: Json; pointer: string } | undefined {
  let current = pointer;
  for (let hops = 0; hops < 10; hops++) {
    let node: unknown = doc;
    for (const part of current.split("/").slice(1)) {
      if (!isObject(node)) return undefined;
      node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    if (!isObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== "string") return { node, pointer: current };
    if (!ref.startsWith("#/")) return undefined;
    current = ref.slice(1);
  }
  return undefined;
}

/**
 * Builds a {@link ResponseValidator} for `doc`. The response is looked up by exact status, then
 * by range (`4XX`), then `default`; its `application/json` schema is compiled once and cached.
 */
export function createResponseValidator(doc: object): ResponseValidator {
  const root = doc as Json;
  const ajv = createDocumentAjv(doc);
  const cache = new Map<string, ValidateFunction>();

  return (method, pathTemplate, status, body) => {
    const opPointer = `/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}`;
    const op = resolveLocal(root, opPointer);
    if (!op) return [`${method.toUpperCase()} ${pathTemplate} is not documented`];

    const responses = isObject(op.node.responses) ? op.node.responses : {};
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => k in responses);
    if (key === undefined) return [`${method.toUpperCase()} ${pathTemplate} documents no response for status ${status}`];

    const response = resolveLocal(root, `${op.pointer}/responses/${key}`);
    if (!response) return [`response ${key} of ${method.toUpperCase()} ${pathTemplate} does not resolve`];
    const content = isObject(response.node.content) ? response.node.content : undefined;
    const media = content?.["application/json"];
    if (!isObject(media) || !isObject(media.schema)) {
      return body === undefined || body === "" ? [] : [`response ${key} of ${method.toUpperCase()} ${pathTemplate} documents no JSON body`];
    }

    const schemaPointer = `${response.pointer}/content/application~1json/schema`;
    let validate = cache.get(schemaPointer);
    if (!validate) {
      validate = compileAt(ajv, schemaPointer);
      cache.set(schemaPointer, validate);
    }
    return validate(body) ? [] : formatErrors(validate.errors);
  };
}

/** The document the test gateway serves (base path {@link BASE_PATH}, dev routes on). */
const testDocument = buildOpenApiDocument({ basePath: BASE_PATH, devRoutes: true });

/** Validator of the document the test gateway serves. */
export const validateResponse: ResponseValidator = createResponseValidator(testDocument);

/** The hint the document's example for error `code` shows, so tests can hold the document to the answers. */
export function documentedHint(code: string): string | undefined {
  for (const response of Object.values(testDocument.components.responses)) {
    const examples = ((response.content as Json | undefined)?.["application/json"] as Json | undefined)?.examples as
      Record<string, { value: { hint: string } }> | undefined;
    if (examples?.[code]) return examples[code].value.hint;
  }
  return undefined;
}
