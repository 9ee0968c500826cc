// email.send over the three direct email vendors: their wire formats, normalized results and error mapping.
import type { RailResponse } from "../domain/rail-port";
import type { ProviderAdapter } from "../domain/provider-port";
import { postmarkProvider } from "./postmark";
import { providerAdapter } from "./registry";
import { resendProvider } from "./resend";
import { DEFAULT_FROM, useSandboxRoutes } from "./sandbox-route.fixture";
import { sendgridProvider } from "./sendgrid";

const routes = useSandboxRoutes();
const ctx = {
  baseUrl: "https://vendor.example",
  credentials: { apiKey: "k_123" },
  settings: { defaultFrom: DEFAULT_FROM },
  idempotencyKey: "exe_1",
};
const input = {
  to: ["a@example.com", "b@example.com"],
  subject: "Hello",
  html: "<p>Hi</p>",
  text: "Hi",
  replyTo: "support@acme.dev",
  cc: "c@example.com",
};
const attachments = [
  { filename: "report.pdf", contentBase64: "JVBERi0xLjQ=", contentType: "application/pdf" },
  { filename: "notes.txt", contentBase64: "aGk=" },
];
const response = (status: number, body: unknown, headers: Record<string, string> = {}): RailResponse => ({ status, headers, body });

describe("Resend adapter", () => {
  const adapter: ProviderAdapter = providerAdapter(resendProvider);
  it("builds POST /emails with a bearer key, the idempotency key and snake_case fields", () => {
    expect(adapter.buildRequest("email.send", input, ctx)).toEqual({
      method: "POST",
      url: "https://vendor.example/emails",
      headers: { Authorization: "Bearer k_123", "Idempotency-Key": "exe_1" },
      body: {
        from: DEFAULT_FROM,
        to: ["a@example.com", "b@example.com"],
        subject: "Hello",
        html: "<p>Hi</p>",
        text: "Hi",
        cc: ["c@example.com"],
        reply_to: ["support@acme.dev"],
      },
    });
  });
  it("maps 422 validation errors to a non-retryable input error, 429 to a retryable provider error", () => {
    expect(() =>
      adapter.parseResponse(
        "email.send",
        response(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." }),
        input,
      ),
    ).toThrow(expect.objectContaining({ kind: "http_4xx", retryable: false, blame: "input", vendorCode: "validation_error", status: 422 }));
    expect(() =>
      adapter.parseResponse(
        "email.send",
        response(429, { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" }),
        input,
      ),
    ).toThrow(expect.objectContaining({ kind: "http_4xx", retryable: true, blame: "provider" }));
  });
  it("sends through the sandbox and returns the message id", async () => {
    const { result } = await routes.execute("resend", "direct", "email.send", input, "exe_42");
    expect(result.status).toBe("sent");
    expect(result.providerMessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.data).toEqual({ messageId: result.providerMessageId });
    expect(routes.sandbox().control.calls("resend")[0]?.headers["idempotency-key"]).toBe("exe_42");
  });
  it("maps attachments to {filename, content, content_type} and sends them", async () => {
    expect(adapter.buildRequest("email.send", { ...input, attachments }, ctx).body).toMatchObject({
      attachments: [
        { filename: "report.pdf", content: "JVBERi0xLjQ=", content_type: "application/pdf" },
        { filename: "notes.txt", content: "aGk=" },
      ],
    });
    expect((await routes.execute("resend", "direct", "email.send", { ...input, attachments })).result.status).toBe("sent");
    expect(() => adapter.buildRequest("email.send", { ...input, attachments: [{ filename: "x" }] }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input" }),
    );
  });
  it("refuses an input it cannot send before any call", () => {
    expect(() => adapter.buildRequest("email.send", { to: "a@example.com", subject: "x", text: "y" }, { baseUrl: "https://v" })).toThrow(
      /no platform sender/,
    );
    expect(() => adapter.buildRequest("email.send", { to: "a@example.com", subject: "x", from: "a@b.c" }, ctx)).toThrow(/html.*text/);
    expect(() => adapter.buildRequest("search.answer", input, ctx)).toThrow(expect.objectContaining({ kind: "unsupported_capability" }));
  });
});

describe("SendGrid adapter", () => {
  const adapter: ProviderAdapter = providerAdapter(sendgridProvider);
  it("builds POST /v3/mail/send with personalizations, a from object and text/plain first", () => {
    const req = adapter.buildRequest("email.send", input, ctx);
    expect(req).toMatchObject({ method: "POST", url: "https://vendor.example/v3/mail/send", headers: { Authorization: "Bearer k_123" } });
    expect(req.body).toEqual({
      personalizations: [{ to: [{ email: "a@example.com" }, { email: "b@example.com" }], cc: [{ email: "c@example.com" }] }],
      from: { email: "noreply@agentic.dev", name: "Agentic" },
      reply_to: { email: "support@acme.dev" },
      subject: "Hello",
      content: [
        { type: "text/plain", value: "Hi" },
        { type: "text/html", value: "<p>Hi</p>" },
      ],
    });
  });
  it("reads the message id from X-Message-Id on 202, and fails without it", () => {
    expect(adapter.parseResponse("email.send", response(202, undefined, { "x-message-id": "abc" }), input)).toEqual({
      status: "sent",
      providerMessageId: "abc",
      data: { messageId: "abc" },
    });
    expect(() => adapter.parseResponse("email.send", response(202, undefined), input)).toThrow(
      expect.objectContaining({ kind: "invalid_response", retryable: false }),
    );
  });
  it("maps {errors: [...]} with fields into the message; 401 blames the provider", () => {
    const invalid = response(400, {
      errors: [{ message: "Does not contain a valid address.", field: "personalizations.0.to.0.email", help: null }],
    });
    expect(() => adapter.parseResponse("email.send", invalid, input)).toThrow(
      expect.objectContaining({ kind: "http_4xx", blame: "input", message: expect.stringContaining("personalizations.0.to.0.email") }),
    );
    expect(() =>
      adapter.parseResponse(
        "email.send",
        response(401, { errors: [{ message: "The provided authorization grant is invalid, expired, or revoked", field: null }] }),
        input,
      ),
    ).toThrow(expect.objectContaining({ blame: "provider", retryable: false }));
  });
  it("maps attachments to {content, filename, type, disposition}", async () => {
    expect(adapter.buildRequest("email.send", { ...input, attachments }, ctx).body).toMatchObject({
      attachments: [
        { content: "JVBERi0xLjQ=", filename: "report.pdf", type: "application/pdf", disposition: "attachment" },
        { content: "aGk=", filename: "notes.txt", disposition: "attachment" },
      ],
    });
    expect((await routes.execute("sendgrid", "direct", "email.send", { ...input, attachments })).res.status).toBe(202);
  });
  it("sends through the sandbox (202 + X-Message-Id)", async () => {
    const { res, result } = await routes.execute("sendgrid", "direct", "email.send", input);
    expect(res.status).toBe(202);
    expect(result).toMatchObject({ status: "sent", providerMessageId: res.headers["x-message-id"] });
  });
});

describe("Postmark adapter", () => {
  const adapter: ProviderAdapter = providerAdapter(postmarkProvider);
  it("builds POST /email with the server token and PascalCase, comma-joined fields", () => {
    expect(adapter.buildRequest("email.send", input, ctx)).toEqual({
      method: "POST",
      url: "https://vendor.example/email",
      headers: { Accept: "application/json", "X-Postmark-Server-Token": "k_123" },
      body: {
        From: DEFAULT_FROM,
        To: "a@example.com, b@example.com",
        Cc: "c@example.com",
        ReplyTo: "support@acme.dev",
        Subject: "Hello",
        HtmlBody: "<p>Hi</p>",
        TextBody: "Hi",
        MessageStream: "outbound",
      },
    });
  });
  it("writes each recipient as one mailbox and sends as the platform sender, under the caller's name marked as relayed", () => {
    const body = adapter.buildRequest(
      "email.send",
      { ...input, to: '"Ada Lovelace" <ada@example.com>', from: "Ada's Shop <noreply@agentic.dev>" },
      ctx,
    ).body as Record<string, unknown>;
    expect([body.To, body.From]).toEqual(["Ada Lovelace <ada@example.com>", "Ada's Shop via Agentic API <noreply@agentic.dev>"]);
  });
  it("refuses a recipient that is a list and a from that is not the platform sender, before any call", () => {
    expect(() => adapter.buildRequest("email.send", { ...input, to: "a@x.io, b@x.io, c <c@x.io>" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "to" }),
    );
    expect(() => adapter.buildRequest("email.send", { ...input, from: "Security Team <security@agentic.dev>" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "from" }),
    );
  });
  it("maps {ErrorCode, Message}: 422/300 is the caller's, 401/10 is ours, 500 is retryable", () => {
    expect(() => adapter.parseResponse("email.send", response(422, { ErrorCode: 300, Message: "Invalid email request" }), input)).toThrow(
      expect.objectContaining({ blame: "input", vendorCode: "300" }),
    );
    expect(() => adapter.parseResponse("email.send", response(401, { ErrorCode: 10, Message: "Bad token" }), input)).toThrow(
      expect.objectContaining({ blame: "provider", vendorCode: "10" }),
    );
    expect(() => adapter.parseResponse("email.send", response(500, { ErrorCode: 0, Message: "oops" }), input)).toThrow(
      expect.objectContaining({ kind: "http_5xx", retryable: true }),
    );
  });
  it("maps attachments to {Name, Content, ContentType}, defaulting the type", async () => {
    expect(adapter.buildRequest("email.send", { ...input, attachments }, ctx).body).toMatchObject({
      Attachments: [
        { Name: "report.pdf", Content: "JVBERi0xLjQ=", ContentType: "application/pdf" },
        { Name: "notes.txt", Content: "aGk=", ContentType: "application/octet-stream" },
      ],
    });
    expect((await routes.execute("postmark", "direct", "email.send", { ...input, attachments })).result.status).toBe("sent");
  });
  it("sends through the sandbox and returns MessageID", async () => {
    const { result } = await routes.execute("postmark", "direct", "email.send", input);
    expect(result.status).toBe("sent");
    expect(result.providerMessageId).toMatch(/^[0-9a-f-]{36}$/);
  });
  it("surfaces the sandbox's own validation error as an input error", async () => {
    const cc = Array.from({ length: 50 }, (_, i) => `c${i}@example.com`);
    const err = await routes.executeError("postmark", "direct", "email.send", { ...input, cc });
    expect(err).toMatchObject({ kind: "http_4xx", status: 422, blame: "input", vendorCode: "300" });
  });
});
