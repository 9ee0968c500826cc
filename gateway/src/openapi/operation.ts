// One operation of the document from its spec: the responses every operation shares (auth, limits, body
// errors, deadline) are added here, so each path lists only its own.

import type { JsonObject } from "./document";
import { BEARER, JSON_MEDIA, PUBLIC, ref } from "./json-schema";
import { responseRef } from "./error-responses";
import { PAGE_HEADERS } from "./catalog-lists";

export const jsonBody = (schema: JsonObject, example?: unknown): JsonObject => ({
  [JSON_MEDIA]: { schema, ...(example === undefined ? {} : { examples: { default: { value: example } } }) },
});

export const ok = (description: string, schema: JsonObject, example: unknown): JsonObject => ({
  description,
  content: jsonBody(schema, example),
});

export const paramRef = (name: string): JsonObject => ({ $ref: `#/components/parameters/${name}` });

interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  auth: boolean;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  success: JsonObject;
  errors: Record<string, string>;
  /** Catalog answers: the 200 carries an ETag, and If-None-Match with it answers 304. */
  conditional?: boolean;
  /** Catalog lists: limit and cursor, the page headers, 400 for a bad one and 410 for a stale cursor. */
  paged?: boolean;
}

/** The 200 of a catalog answer with its validators, and the 304 that If-None-Match may bring. */
function conditionalResponses(success: JsonObject, headers: JsonObject = {}): JsonObject {
  return {
    "200": {
      ...success,
      headers: {
        ...headers,
        ETag: { description: "Strong validator of the answer; send it back as If-None-Match.", schema: { type: "string" } },
        "Cache-Control": {
          description: "`no-cache`: keep the answer, but revalidate it (the catalog can change at any deploy).",
          schema: { type: "string" },
        },
      },
    },
    "304": {
      description: "Not Modified: If-None-Match named the current ETag. Empty body; use the copy you have.",
      headers: { ETag: { description: "The current ETag.", schema: { type: "string" } } },
    },
  };
}

export function operation(spec: OperationSpec): JsonObject {
  const responses: JsonObject = spec.conditional
    ? conditionalResponses(spec.success, spec.paged ? PAGE_HEADERS : {})
    : { "200": spec.success };
  if (spec.paged) {
    responses["400"] = responseRef("InvalidQuery");
    responses["410"] = responseRef("CursorExpired");
  }
  if (spec.auth) {
    responses["401"] = responseRef("Unauthorized");
    responses["429"] = responseRef("TooManyRequests");
  }
  if (spec.requestBody) {
    responses["413"] = responseRef("PayloadTooLarge");
    responses["415"] = responseRef("UnsupportedMediaType");
  }
  for (const [status, name] of Object.entries(spec.errors)) responses[status] = responseRef(name);
  responses["503"] ??= responseRef("Unavailable");
  // Every operation calls a backend under the gateway's deadline (catalog answers on a cache miss).
  responses["504"] ??= responseRef("Timeout");
  const parameters = [
    ...(spec.parameters ?? []),
    ...(spec.paged ? [paramRef("pageLimit"), paramRef("pageCursor")] : []),
    ...(spec.conditional ? [paramRef("IfNoneMatch")] : []),
  ];
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    security: spec.auth ? BEARER : PUBLIC,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: sortByStatus(responses),
  };
}

/** POST /route and POST /domains/{domainKey}/route: keyless like the catalog reads; a key, when sent, is checked (401) and limited (429). */
export function routeOperation(
  operationId: string,
  summary: string,
  scope: string,
  parameters: JsonObject[],
  errors: Record<string, string> = {},
): JsonObject {
  const op = operation({
    operationId,
    tag: "Routing",
    summary,
    description:
      `Intent routing over ${scope}: the live and recommend-only capabilities that do a task written in words, best first, each with a score ` +
      "(0-1, comparable across tasks), `why` it matched, its starting price and where to go next (contract, recommend). `abstained` is true when " +
      'nothing in the catalog does the task. `constraints` reads goals ("cheapest"), a price cap ("under 20 credits", "less than 5 cents"), ' +
      'a provider ("via Postmark") and the top match\'s fields the words fill. Free, deterministic, in process. No key needed; with one, the top match ' +
      "says `canExecuteNow` for it. Don't know which capability does your task? Ask here first.",
    auth: true,
    parameters,
    requestBody: {
      required: true,
      content: jsonBody(ref("RouteTaskRequest"), { task: "tell ana@example.com the invoice is attached", limit: 5 }),
    },
    success: ok("The matches.", ref("RouteTaskResponse"), undefined),
    errors: { "400": "BadRequest", ...errors },
  });
  return { ...op, security: [{}, ...BEARER] };
}

function sortByStatus(responses: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
