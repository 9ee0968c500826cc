import { OperationContract, type FieldContract } from "@agentic/proto/catalog/v1";
import { validateInput } from "./validate-input";

const field = (f: Partial<FieldContract> & Pick<FieldContract, "name" | "type">): FieldContract => ({
  required: false,
  enumValues: [],
  fields: [],
  notes: [],
  ...f,
});

/** Shaped like the shipped email.send and models.chat.complete contracts, with the routing controls. */
const contract = OperationContract.fromPartial({
  status: "available",
  fields: [
    field({ name: "to", type: "string", required: true, format: "email", maxLength: 320 }),
    field({ name: "subject", type: "string", required: true, maxLength: 20 }),
    field({ name: "html", type: "string" }),
    field({ name: "text", type: "string" }),
    field({ name: "cc", type: "array", itemsType: "string", format: "email", maxLength: 2 }),
    field({ name: "priority", type: "string", enumValues: ["low", "high"] }),
    field({ name: "maxTokens", type: "integer", min: 1, max: 100 }),
    field({ name: "temperature", type: "number", min: 0, max: 2 }),
    field({
      name: "messages",
      type: "array",
      itemsType: "object",
      fields: [
        field({ name: "role", type: "string", required: true, enumValues: ["user", "assistant"] }),
        field({ name: "content", type: "string", required: true }),
      ],
    }),
    field({ name: "meta", type: "object" }),
    field({ name: "schema", type: "object", maxLength: 20 }),
    field({ name: "tags", type: "array", itemsType: "string", maxLength: 3, itemMaxLength: 5 }),
    field({ name: "provider", type: "string", maxLength: 64 }),
    field({ name: "allowFallback", type: "boolean" }),
  ],
  oneOfRequired: [{ fields: ["html", "text"] }],
});

const ok = { to: "ada@example.com", subject: "Hi", text: "Hello" };
const problem = (body: Record<string, unknown>) => validateInput(body, contract);

describe("validateInput", () => {
  it("accepts a body that follows the contract, routing controls included", () => {
    expect(problem(ok)).toBeUndefined();
    expect(
      problem({
        ...ok,
        cc: ["b@example.com", "Carol <c@example.org>"],
        priority: "high",
        maxTokens: 5,
        temperature: 0.5,
        provider: "resend",
        allowFallback: false,
      }),
    ).toBeUndefined();
    expect(problem({ ...ok, messages: [{ role: "user", content: "hi" }], meta: { anything: [1, 2] } })).toBeUndefined();
    expect(problem({ ...ok, schema: { type: "object" }, tags: ["a", "bcdef"] })).toBeUndefined();
  });

  it.each([
    [{ subject: "Hi", text: "x" }, "to", "is required"],
    [{ ...ok, to: "" }, "to", "must not be empty"],
    [{ ...ok, to: 42 }, "to", "must be a string"],
    [{ ...ok, to: "not-an-address" }, "to", "email address"],
    [{ ...ok, to: "ada@localhost" }, "to", "email address"],
    [{ ...ok, subject: "x".repeat(21) }, "subject", "at most 20 characters"],
    [{ ...ok, bcc: ["x@example.com"] }, "bcc", "unknown field"],
    [{ to: "ada@example.com", subject: "Hi" }, "html|text", "at least one of html, text"],
    [{ ...ok, cc: "b@example.com" }, "cc", "must be an array"],
    [{ ...ok, cc: ["a@example.com", "b@example.com", "c@example.com"] }, "cc", "at most 2 items"],
    [{ ...ok, cc: ["a@example.com", "nope"] }, "cc[1]", "email address"],
    [{ ...ok, priority: "urgent" }, "priority", "one of low, high"],
    [{ ...ok, maxTokens: 1.5 }, "maxTokens", "integer"],
    [{ ...ok, maxTokens: 0 }, "maxTokens", "at least 1"],
    [{ ...ok, temperature: 3 }, "temperature", "at most 2"],
    [{ ...ok, temperature: "hot" }, "temperature", "must be a number"],
    [{ ...ok, allowFallback: "yes" }, "allowFallback", "true or false"],
    [{ ...ok, messages: [{ role: "user" }] }, "messages[0].content", "is required"],
    [{ ...ok, messages: [{ role: "robot", content: "x" }] }, "messages[0].role", "one of user, assistant"],
    [{ ...ok, messages: [{ role: "user", content: "x", extra: 1 }] }, "messages[0].extra", "unknown field"],
    [{ ...ok, messages: ["hi"] }, "messages[0]", "must be an object"],
    [{ ...ok, meta: [1] }, "meta", "must be an object"],
    [{ ...ok, provider: "p".repeat(65) }, "provider", "at most 64 characters"],
    [{ ...ok, schema: { type: "object", title: "long" } }, "schema", "at most 20 characters as JSON"],
    [{ ...ok, tags: ["short", "longer"] }, "tags[1]", "at most 5 characters (got 6)"],
  ])("names the field of %j", (body, field, text) => {
    const found = problem(body as Record<string, unknown>);
    expect(found?.field).toBe(field);
    expect(found?.problem).toContain(text);
  });
});
