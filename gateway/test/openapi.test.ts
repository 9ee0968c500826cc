// Tests of the OpenAPI document (structure, schemas, examples) and of the response validator.

import { buildOpenApiDocument, FREE_FORM_SCHEMAS, SCHEMA_NAMES, type JsonObject, type OpenApiDocument } from "../src/openapi/openapi";
import { INVALID_KEY_HINT, KEY_REQUIRED_HINT } from "../src/middleware/auth";
import { compileAt, createDocumentAjv, createResponseValidator, formatErrors } from "./validate-response";

const BASE_PATH = "/api/agentic-api";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

const dev = buildOpenApiDocument({ basePath: BASE_PATH, devRoutes: true });
const prod = buildOpenApiDocument({ basePath: BASE_PATH, devRoutes: false });

type Operation = { method: string; path: string; op: JsonObject };

function operations(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method, path, op })),
  );
}

/** Every value under `node` with its JSON pointer. */
function* walk(node: unknown, pointer = ""): Generator<[unknown, string]> {
  yield [node, pointer];
  if (typeof node !== "object" || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    yield* walk(value, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  }
}

function at(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const part of pointer.split("/").slice(1)) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as JsonObject)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

/** Follows a `$ref` of the document (parameters, responses). */
function deref(doc: OpenApiDocument, node: JsonObject): JsonObject {
  return typeof node.$ref === "string" ? (at(doc, node.$ref.slice(1)) as JsonObject) : node;
}

describe("OpenAPI document", () => {
  it("is an OpenAPI 3.1.0 document of Agentic API 1.0.0", () => {
    expect(dev.openapi).toBe("3.1.0");
    expect(dev.info).toMatchObject({ title: "Agentic API", version: "1.0.0" });
    expect(dev.servers).toEqual([{ url: BASE_PATH, description: expect.any(String) }]);
    expect(prod.servers[0]?.url).toBe(BASE_PATH);
    const other = buildOpenApiDocument({ basePath: "/v2/agents", devRoutes: false });
    expect(other.servers[0]?.url).toBe("/v2/agents");
    expect((other.components.schemas.DomainCatalogEntry.examples as JsonObject[])[0]?.capabilitiesPath).toBe(
      "/v2/agents/domains/email/capabilities",
    );
  });

  it("documents every endpoint of the spec, /dev/init only with dev routes", () => {
    const catalog = [
      "GET /domains",
      "GET /capabilities",
      "GET /routes",
      "GET /domains/{domainKey}",
      "GET /domains/{domainKey}/capabilities",
      "GET /domains/{domainKey}/capabilities/{capabilityId}",
      "GET /domains/{domainKey}/routes",
      "GET /domains/{domainKey}/capabilities/{capabilityId}/routes",
      "GET /domains/{domainKey}/capabilities/{capabilityId}/contract",
      "POST /domains/{domainKey}/capabilities/{capabilityId}/recommend",
      "POST /domains/{domainKey}/capabilities/{capabilityId}/execute",
      "POST /domains/{domainKey}/capabilities/{capabilityId}/quote",
      "GET /executions/{executionId}",
      "GET /wallet",
      "POST /wallet/top-up",
      "GET /usage",
      "POST /route",
      "POST /domains/{domainKey}/route",
      "GET /usage/summary",
      "GET /usage/export",
      "GET /overview",
    ];
    const list = (doc: OpenApiDocument) =>
      operations(doc)
        .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
        .sort();
    expect(list(prod)).toEqual([...catalog].sort());
    expect(list(dev)).toEqual([...catalog, "POST /dev/init"].sort());
    expect(prod.tags.map((t) => t.name)).not.toContain("Development");
  });

  it("resolves every $ref", () => {
    for (const doc of [dev, prod]) {
      for (const [node, pointer] of walk(doc)) {
        if (typeof node !== "object" || node === null || !("$ref" in node)) continue;
        const target = (node as JsonObject).$ref;
        expect(typeof target === "string" && target.startsWith("#/")).toBe(true);
        expect({ pointer, resolved: at(doc, (target as string).slice(1)) !== undefined }).toEqual({ pointer, resolved: true });
      }
    }
  });

  it("gives every operation a unique camelCase operationId, known tags and a 2xx response", () => {
    const tagNames = dev.tags.map((t) => t.name);
    const ids = operations(dev).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(
      [
        "listDomains",
        "searchCapabilities",
        "searchRoutes",
        "getDomain",
        "listCapabilities",
        "getCapability",
        "listDomainRoutes",
        "listCapabilityRoutes",
        "getCapabilityContract",
        "recommendRoute",
        "executeCapability",
        "quoteCapability",
        "getExecution",
        "getWallet",
        "summarizeUsage",
        "exportUsage",
        "getOverview",
        "topUpWallet",
        "listUsage",
        "devInit",
        "routeTask",
        "routeDomainTask",
      ].sort(),
    );
    for (const { op } of operations(dev)) {
      expect(op.operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(Array.isArray(op.tags) && op.tags.length > 0).toBe(true);
      for (const tag of op.tags as string[]) expect(tagNames).toContain(tag);
      expect(Object.keys(op.responses as JsonObject).some((s) => /^2\d\d$/.test(s))).toBe(true);
    }
  });

  it("declares every path parameter of a template, and no others", () => {
    for (const { method, path, op } of operations(dev)) {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const params = ((op.parameters ?? []) as JsonObject[]).map((p) => deref(dev, p));
      const declared = params.filter((p) => p.in === "path");
      for (const p of declared) expect(p.required).toBe(true);
      expect({ op: `${method} ${path}`, params: declared.map((p) => p.name).sort() }).toEqual({
        op: `${method} ${path}`,
        params: inTemplate,
      });
    }
  });

  it("lets intent routing take a key or none: security names both, a key sent is checked (401)", () => {
    for (const { op } of operations(dev).filter(({ op }) => ["routeTask", "routeDomainTask"].includes(op.operationId as string))) {
      expect(op.security).toEqual([{}, { bearerAuth: [] }]);
      expect((op.responses as JsonObject)["401"]).toBeDefined();
      expect((op.responses as JsonObject)["400"]).toBeDefined();
    }
  });

  it("puts bearer auth on recommend, execute, quote, executions, wallet and usage only, with a 401", () => {
    expect(dev.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "aak_ API key" });
    const authed = [
      "recommendRoute",
      "executeCapability",
      "quoteCapability",
      "getExecution",
      "getWallet",
      "topUpWallet",
      "listUsage",
      "summarizeUsage",
      "exportUsage",
      "getOverview",
    ];
    const optionalKey = ["routeTask", "routeDomainTask"];
    for (const { op } of operations(dev).filter(({ op }) => !optionalKey.includes(op.operationId as string))) {
      const responses = op.responses as JsonObject;
      if (authed.includes(op.operationId as string)) {
        expect(op.security).toEqual([{ bearerAuth: [] }]);
        expect(responses["401"]).toBeDefined();
      } else {
        expect(op.security).toEqual([]);
        expect(responses["401"]).toBeUndefined();
      }
    }
  });

  it("documents the execute error statuses and the Idempotency-Key header", () => {
    const execute = dev.paths["/domains/{domainKey}/capabilities/{capabilityId}/execute"]?.post as JsonObject;
    expect(Object.keys(execute.responses as JsonObject).sort()).toEqual([
      "200",
      "400",
      "401",
      "402",
      "403",
      "404",
      "409",
      "410",
      "413",
      "415",
      "429",
      "502",
      "503",
      "504",
    ]);
    const header = ((execute.parameters ?? []) as JsonObject[]).map((p) => deref(dev, p)).find((p) => p.in === "header");
    expect(header).toMatchObject({ name: "Idempotency-Key", required: false, schema: { type: "string", maxLength: 255 } });
    const limit = ((dev.paths["/usage"]?.get?.parameters ?? []) as JsonObject[]).map((p) => deref(dev, p))[0];
    expect(limit).toMatchObject({ name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } });
  });

  /** The error codes a response of `op` documents for `status` (from its examples). */
  const codesOf = (op: JsonObject, status: string): string[] => {
    const response = deref(dev, (op.responses as JsonObject)[status] as JsonObject);
    return Object.keys(((response.content as JsonObject)["application/json"] as JsonObject).examples as JsonObject);
  };

  it("documents body errors on every POST and the gateway's deadline (504 TIMEOUT) on every operation", () => {
    for (const { method, path, op } of operations(dev)) {
      const where = `${method} ${path}`;
      expect({ where, timeout: codesOf(op, "504") }).toEqual({ where, timeout: expect.arrayContaining(["TIMEOUT"]) });
      if (method !== "post") continue;
      expect({ where, codes: codesOf(op, "400") }).toEqual({ where, codes: expect.arrayContaining(["INVALID_JSON", "INVALID_BODY"]) });
      expect({ where, codes: codesOf(op, "413") }).toEqual({ where, codes: ["PAYLOAD_TOO_LARGE"] });
      expect({ where, codes: codesOf(op, "415") }).toEqual({ where, codes: ["UNSUPPORTED_MEDIA_TYPE", "UNSUPPORTED_ENCODING"] });
    }
    const execute = dev.paths["/domains/{domainKey}/capabilities/{capabilityId}/execute"]?.post as JsonObject;
    expect(codesOf(execute, "504")).toEqual(["PROVIDER_TIMEOUT", "TIMEOUT"]);
  });

  it("documents the execution errors: Retry-After and Execution-Id on 409, the abandoned outcome on 502, executionId in the body", () => {
    const execute = dev.paths["/domains/{domainKey}/capabilities/{capabilityId}/execute"]?.post as JsonObject;
    expect(codesOf(execute, "409")).toEqual([
      "CAPABILITY_GATED",
      "IDEMPOTENCY_CONFLICT",
      "IDEMPOTENCY_IN_PROGRESS",
      "EXECUTION_INDETERMINATE",
      "PRICE_ABOVE_MAX",
      "QUOTE_ALREADY_USED",
      "QUOTE_MISMATCH",
      "RECOMMENDATION_STALE",
    ]);
    expect(codesOf(execute, "410")).toEqual(["QUOTE_EXPIRED", "RECOMMENDATION_EXPIRED"]);
    expect(codesOf(execute, "502")).toEqual(["PROVIDER_ERROR", "EXECUTION_OUTCOME_UNKNOWN"]);
    const conflict = deref(dev, (execute.responses as JsonObject)["409"] as JsonObject);
    expect(conflict.headers).toMatchObject({ "Retry-After": { schema: { type: "integer" } }, "Execution-Id": expect.any(Object) });
    expect((dev.components.schemas.ErrorResponse as { properties: JsonObject }).properties).toHaveProperty("executionId");
    const get = dev.paths["/executions/{executionId}"]?.get as JsonObject;
    expect(Object.keys(get.responses as JsonObject).sort()).toEqual(["200", "400", "401", "404", "429", "503", "504"]);
    expect(codesOf(get, "404")).toEqual(["EXECUTION_NOT_FOUND"]);
    expect((dev.components.schemas.Execution as { properties: { state: JsonObject } }).properties.state.enum).toEqual([
      "claimed",
      "running",
      "succeeded",
      "failed",
      "outcome_unknown",
    ]);
  });

  it("documents the limits: 429 with the RateLimit headers on every authenticated operation, 503 OVERLOADED on every operation", () => {
    for (const { method, path, op } of operations(dev)) {
      const where = `${method} ${path}`;
      expect({ where, codes: codesOf(op, "503") }).toEqual({ where, codes: expect.arrayContaining(["OVERLOADED"]) });
      const tooMany = (op.responses as JsonObject)["429"] as JsonObject | undefined;
      if ((op.security as unknown[]).length === 0) {
        expect({ where, tooMany }).toEqual({ where, tooMany: undefined });
        continue;
      }
      // Every authenticated operation has the request limits; some add their own (execute: a vendor quota every
      // user shares, the day's allowance of uncharged failures; quote: a key's open quotes).
      expect({ where, codes: codesOf(op, "429").slice(0, 2) }).toEqual({ where, codes: ["RATE_LIMITED", "CONCURRENCY_LIMITED"] });
      expect(Object.keys(deref(dev, tooMany!).headers as JsonObject).sort()).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After"]);
    }
  });

  it("documents 304 and the ETag of every catalog GET", () => {
    const catalogOps = operations(dev).filter(({ op }) => ["Catalog", "Contracts"].includes((op.tags as string[])[0]!));
    expect(catalogOps).toHaveLength(9);
    for (const { op } of catalogOps) {
      const responses = op.responses as JsonObject;
      expect(responses["304"]).toMatchObject({ headers: { ETag: expect.any(Object) } });
      expect(responses["200"]).toMatchObject({ headers: { ETag: expect.any(Object), "Cache-Control": expect.any(Object) } });
      expect(((op.parameters ?? []) as JsonObject[]).map((p) => deref(dev, p)).map((p) => p.name)).toContain("If-None-Match");
    }
  });

  it("documents paging on every catalog list: limit, cursor, Link, X-Total-Count, 400 and 410 CURSOR_EXPIRED", () => {
    const lists = operations(dev).filter(
      ({ op }) => /^(list|search)/.test(op.operationId as string) && (op.tags as string[])[0] === "Catalog",
    );
    expect(lists.map(({ path }) => path).sort()).toEqual(
      [
        "/capabilities",
        "/routes",
        "/domains",
        "/domains/{domainKey}/capabilities",
        "/domains/{domainKey}/routes",
        "/domains/{domainKey}/capabilities/{capabilityId}/routes",
      ].sort(),
    );
    for (const { op } of lists) {
      const responses = op.responses as JsonObject;
      expect(Object.keys((responses["200"] as JsonObject).headers as JsonObject)).toEqual(
        expect.arrayContaining(["Link", "X-Total-Count"]),
      );
      expect(codesOf(op, "410")).toEqual(["CURSOR_EXPIRED"]);
      expect(codesOf(op, "400")).toContain("INVALID_INPUT");
      const names = ((op.parameters ?? []) as JsonObject[]).map((p) => deref(dev, p)).map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["limit", "cursor"]));
    }
    const search = lists.find(({ path }) => path === "/capabilities")!.op;
    const names = ((search.parameters ?? []) as JsonObject[]).map((p) => deref(dev, p)).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["q", "status", "provider", "feature", "networkKey", "maxPriceCredits"]));
  });

  it("gives the 401 examples the hints the gateway answers with", () => {
    const examples = ((deref(dev, { $ref: "#/components/responses/Unauthorized" }).content as JsonObject)["application/json"] as JsonObject)
      .examples as Record<string, { value: JsonObject }>;
    expect(examples.INVALID_API_KEY?.value.hint).toBe(INVALID_KEY_HINT);
    expect(examples.AGENTIC_API_KEY_REQUIRED?.value.hint).toBe(KEY_REQUIRED_HINT);
  });

  it("documents what the services send: preference sources, usage error codes, dev init adding credits", () => {
    const recommendation = dev.components.schemas.RecommendationResponse as { properties: Record<string, JsonObject> };
    expect(recommendation.properties.preferenceSource?.enum).toEqual(["request", "agent", "default"]);
    expect((dev.components.schemas.UsageItem as { properties: JsonObject }).properties).toHaveProperty("errorCode");
    expect(dev.paths["/dev/init"]?.post?.description).toMatch(/adds `balanceCredits`/);
  });

  it("defines every resource schema, closed unless free-form", () => {
    expect(Object.keys(dev.components.schemas).sort()).toEqual([...SCHEMA_NAMES].sort());
    for (const name of SCHEMA_NAMES) {
      const schema = dev.components.schemas[name];
      expect({ name, open: schema.additionalProperties }).toEqual({ name, open: FREE_FORM_SCHEMAS.includes(name) });
    }
    const field = dev.components.schemas.CapabilityFieldContract as { properties: { fields: JsonObject } };
    expect(field.properties.fields).toEqual(expect.objectContaining({ items: { $ref: "#/components/schemas/CapabilityFieldContract" } }));
  });

  it("compiles every schema with ajv in strict mode", () => {
    const ajv = createDocumentAjv(dev);
    const pointers = Object.keys(dev.components.schemas).map((name) => `/components/schemas/${name}`);
    for (const [node, pointer] of walk(dev)) {
      if (pointer.startsWith("/components/schemas")) continue;
      if (pointer.endsWith("/schema") && typeof node === "object") pointers.push(pointer);
    }
    expect(pointers.length).toBeGreaterThan(SCHEMA_NAMES.length + 12);
    for (const pointer of pointers) expect(() => compileAt(ajv, pointer)).not.toThrow();
  });

  it("has examples that match their schemas", () => {
    const ajv = createDocumentAjv(dev);
    let checked = 0;
    const check = (schemaPointer: string, value: unknown, where: string) => {
      const validate = compileAt(ajv, schemaPointer);
      validate(value);
      expect({ where, problems: formatErrors(validate.errors) }).toEqual({ where, problems: [] });
      checked++;
    };
    for (const name of SCHEMA_NAMES) {
      const examples = (dev.components.schemas[name].examples ?? []) as unknown[];
      examples.forEach((value, i) => check(`/components/schemas/${name}`, value, `${name} example ${i}`));
    }
    for (const [node, pointer] of walk(dev)) {
      if (!pointer.endsWith("/content/application~1json")) continue;
      const media = node as JsonObject;
      for (const [key, example] of Object.entries((media.examples ?? {}) as Record<string, JsonObject>)) {
        check(`${pointer}/schema`, example.value, `${pointer} ${key}`);
      }
    }
    expect(checked).toBeGreaterThan(25);
  });
});

describe("createResponseValidator", () => {
  const validate = createResponseValidator(dev);
  const domain = {
    domainKey: "email",
    label: "Email",
    description: "Outbound email.",
    status: "live",
    capabilitiesPath: "/api/agentic-api/domains/email/capabilities",
    routesPath: "/api/agentic-api/domains/email/routes",
    routeEndpoint: null,
    supportsIntentRouting: true,
    liveCapabilityCount: 1,
    totalCapabilityCount: 2,
  };

  it("accepts a valid DomainCatalogEntry array", () => {
    expect(validate("GET", "/domains", 200, [domain, { ...domain, domainKey: "geo", startingPriceCredits: 5 }])).toEqual([]);
  });

  it("rejects an entry with a missing required field", () => {
    const { label: _label, ...missing } = domain;
    expect(validate("GET", "/domains", 200, [missing])).toEqual(["/0: must have required property 'label'"]);
  });

  it("rejects an entry with an extra field", () => {
    expect(validate("get", "/domains", 200, [{ ...domain, vendor: "acme" }])).toEqual(["/0: must NOT have additional properties 'vendor'"]);
  });

  it("rejects wrong types and enum values", () => {
    const problems = validate("GET", "/domains/{domainKey}", 200, { ...domain, status: "beta", liveCapabilityCount: 1.5 });
    expect(problems).toHaveLength(2);
  });

  it("follows response $refs to ErrorResponse", () => {
    const body = { success: false, error: "Domain 'mail' not found.", code: "DOMAIN_NOT_FOUND", hint: "List domains." };
    expect(validate("GET", "/domains/{domainKey}", 404, body)).toEqual([]);
    expect(validate("GET", "/domains/{domainKey}", 404, { ...body, code: "not-found" })).toHaveLength(1);
  });

  it("reports undocumented operations and statuses", () => {
    expect(validate("DELETE", "/domains", 200, [])).toEqual(["DELETE /domains is not documented"]);
    expect(validate("GET", "/domains", 418, {})).toEqual(["GET /domains documents no response for status 418"]);
  });
});
