import type { CapabilityFieldContract, CapabilityOperationContract } from "@agentic-api/sdk";
import { executeInputSchema, fieldSchema, recommendInputSchema } from "./contract-schema";

const field = (f: Partial<CapabilityFieldContract> & Pick<CapabilityFieldContract, "name" | "type">): CapabilityFieldContract => ({
  required: false,
  ...f,
});
const operation = (fields: CapabilityFieldContract[], oneOfRequired?: string[][]): CapabilityOperationContract => ({
  status: "available",
  requiredFields: fields.filter((f) => f.required).map((f) => f.name),
  optionalFields: fields.filter((f) => !f.required).map((f) => f.name),
  conditionallyRequiredFields: [],
  fields,
  notes: [],
  ...(oneOfRequired ? { oneOfRequired } : {}),
});

describe("fieldSchema", () => {
  it("carries types, limits and enums; a required string may not be empty", () => {
    expect(fieldSchema(field({ name: "to", type: "string", required: true, maxLength: 320 }))).toEqual({
      type: "string",
      minLength: 1,
      maxLength: 320,
    });
    expect(fieldSchema(field({ name: "f", type: "string", enumValues: ["a", "b"] }))).toEqual({ type: "string", enum: ["a", "b"] });
    expect(fieldSchema(field({ name: "n", type: "integer", min: 1, max: 500 }))).toEqual({ type: "integer", minimum: 1, maximum: 500 });
    expect(fieldSchema(field({ name: "t", type: "number", min: 0 }))).toEqual({ type: "number", minimum: 0 });
    expect(fieldSchema(field({ name: "b", type: "boolean", notes: ["Ask for tracking"] }))).toEqual({
      type: "boolean",
      description: "Ask for tracking.",
    });
    expect(fieldSchema(field({ name: "x", type: "unknown" }))).toEqual({ description: "Any JSON value." });
  });

  it("keeps a format only where JSON Schema's admits all the API admits; describes the others", () => {
    expect(fieldSchema(field({ name: "u", type: "string", format: "uri" }))).toMatchObject({ format: "uri" });
    expect(fieldSchema(field({ name: "d", type: "string", format: "date" }))).toMatchObject({ format: "date" });
    for (const format of ["email", "date-time", "iana-timezone", "language-tag"] as const) {
      const schema = fieldSchema(field({ name: "s", type: "string", format }));
      expect(schema).not.toHaveProperty("format");
      expect(schema.description).toMatch(/^Format: /);
    }
  });

  it("bounds arrays by items (maxLength), their items by itemMaxLength, enums and nested fields", () => {
    expect(
      fieldSchema(field({ name: "cc", type: "array", itemsType: "string", maxLength: 50, itemMaxLength: 320, format: "email" })),
    ).toEqual({
      type: "array",
      maxItems: 50,
      items: { type: "string", maxLength: 320 },
      description: "Each item: an email address (user@host.tld, or Name <user@host.tld>).",
    });
    expect(fieldSchema(field({ name: "goals", type: "array", itemsType: "string", enumValues: ["cost", "speed"] }))).toEqual({
      type: "array",
      items: { type: "string", enum: ["cost", "speed"] },
    });
    const messages = fieldSchema(
      field({
        name: "messages",
        type: "array",
        itemsType: "object",
        fields: [field({ name: "role", type: "string", required: true, enumValues: ["user"] }), field({ name: "name", type: "string" })],
      }),
    );
    expect(messages.items).toEqual({
      type: "object",
      properties: { role: { type: "string", minLength: 1, enum: ["user"] }, name: { type: "string" } },
      required: ["role"],
      additionalProperties: false,
    });
  });

  it("says a free-form object's size limit, and that a conditionally required field is", () => {
    expect(fieldSchema(field({ name: "schema", type: "object", maxLength: 20000, conditionallyRequired: true }))).toEqual({
      type: "object",
      description: "At most 20000 characters as compact JSON. Required in some combinations (see the tool's description).",
    });
  });
});

describe("executeInputSchema", () => {
  const op = operation(
    [
      field({ name: "to", type: "string", required: true }),
      field({ name: "html", type: "string" }),
      field({ name: "text", type: "string" }),
    ],
    [["html", "text"]],
  );

  it("is the contract's fields plus idempotencyKey, refusing others, with one-of groups in words, not a top-level anyOf", () => {
    const schema = executeInputSchema(op);
    expect(Object.keys(schema.properties as object)).toEqual(["to", "html", "text", "idempotencyKey"]);
    expect(schema).toMatchObject({
      type: "object",
      required: ["to"],
      additionalProperties: false,
      description: "Give at least one of html, text.",
    });
    expect(schema).not.toHaveProperty("anyOf");
    expect(schema).not.toHaveProperty("allOf");
  });

  it("recommend takes its own fields and lets the execute fields through", () => {
    expect(recommendInputSchema(operation([field({ name: "tracking", type: "boolean" })]))).toMatchObject({
      properties: { tracking: { type: "boolean" } },
      additionalProperties: true,
    });
    expect(recommendInputSchema(undefined)).toMatchObject({ type: "object", properties: {}, additionalProperties: true });
  });
});
