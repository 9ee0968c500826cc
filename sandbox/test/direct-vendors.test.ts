// Key-billed stand-ins answer in their vendor's documented success and error formats.
import { SANDBOX_API_KEYS } from "../src/app";
import { AYRSHARE_PRIVATE_KEY, AYRSHARE_PROFILE_DOMAIN } from "../src/vendors/ayrshare";
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const url = (path: string) => `${sandbox().url}${path}`;

describe("Resend", () => {
  const auth = { Authorization: `Bearer ${SANDBOX_API_KEYS.resend}` };
  it("sends and returns an id", async () => {
    const res = await postJson(
      url("/resend/emails"),
      { from: "Acme <hi@acme.dev>", to: ["a@example.com"], subject: "Hi", html: "<p>Hi</p>" },
      auth,
    );
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
  });
  it("answers 401 missing_api_key, 403 invalid_api_key and 422 validation errors", async () => {
    const email = { from: "hi@acme.dev", to: "a@example.com", subject: "Hi", text: "Hi" };
    expect((await postJson(url("/resend/emails"), email)).body).toMatchObject({ statusCode: 401, name: "missing_api_key" });
    expect((await postJson(url("/resend/emails"), email, { Authorization: "Bearer re_wrong" })).body).toMatchObject({
      statusCode: 403,
      name: "invalid_api_key",
    });
    const missing = await postJson(url("/resend/emails"), { ...email, to: undefined }, auth);
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ statusCode: 422, name: "missing_required_field", message: "Missing `to` field." });
    expect((await postJson(url("/resend/emails"), { ...email, from: "not an address" }, auth)).body).toMatchObject({
      statusCode: 422,
      name: "validation_error",
    });
  });
  it("answers bad JSON in Resend's error format", async () => {
    const res = await fetch(url("/resend/emails"), { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: "{" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: 400, name: "invalid_request" });
  });
});

describe("SendGrid", () => {
  const auth = { Authorization: `Bearer ${SANDBOX_API_KEYS.sendgrid}` };
  const mail = {
    personalizations: [{ to: [{ email: "a@example.com" }] }],
    from: { email: "hi@acme.dev" },
    subject: "Hi",
    content: [
      { type: "text/plain", value: "Hi" },
      { type: "text/html", value: "<p>Hi</p>" },
    ],
  };
  it("accepts with 202, an empty body and X-Message-Id", async () => {
    const res = await postJson(url("/sendgrid/v3/mail/send"), mail, auth);
    expect(res.status).toBe(202);
    expect(res.body).toBeUndefined();
    expect(res.headers.get("x-message-id")).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
  it("answers 400 {errors: [{message, field, help}]} and 401 for a bad key", async () => {
    const bad = await postJson(
      url("/sendgrid/v3/mail/send"),
      {
        ...mail,
        content: [
          { type: "text/html", value: "x" },
          { type: "text/plain", value: "x" },
        ],
        from: {},
      },
      auth,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(["from.email", "content"]);
    expect(bad.body.errors[0]).toHaveProperty("help", null);
    const unauth = await postJson(url("/sendgrid/v3/mail/send"), mail, { Authorization: "Bearer SG.wrong" });
    expect(unauth.status).toBe(401);
    expect(unauth.body.errors[0].message).toBe("The provided authorization grant is invalid, expired, or revoked");
  });
});

describe("Postmark", () => {
  const auth = { "X-Postmark-Server-Token": SANDBOX_API_KEYS.postmark, Accept: "application/json" };
  it("sends and returns MessageID with ErrorCode 0", async () => {
    const res = await postJson(
      url("/postmark/email"),
      { From: "hi@acme.dev", To: "a@example.com, b@example.com", Subject: "Hi", TextBody: "Hi", MessageStream: "outbound" },
      auth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ To: "a@example.com, b@example.com", ErrorCode: 0, Message: "OK" });
    expect(res.body.MessageID).toMatch(/^[0-9a-f-]{36}$/);
  });
  it("answers {ErrorCode, Message}: 10 without a token, 300 for an invalid request", async () => {
    expect((await postJson(url("/postmark/email"), { From: "hi@acme.dev" })).body).toMatchObject({ ErrorCode: 10 });
    const noBody = await postJson(url("/postmark/email"), { From: "hi@acme.dev", To: "a@example.com", Subject: "Hi" }, auth);
    expect(noBody.status).toBe(422);
    expect(noBody.body).toEqual({ ErrorCode: 300, Message: "Provide either email TextBody or HtmlBody or both." });
  });
});

describe("DeepL", () => {
  const auth = { Authorization: `DeepL-Auth-Key ${SANDBOX_API_KEYS.deepl}` };
  it("translates a list of texts and reports the detected source language", async () => {
    const res = await postJson(url("/deepl/v2/translate"), { text: ["Hello world", "Bonjour le monde"], target_lang: "DE" }, auth);
    expect(res.status).toBe(200);
    expect(res.body.translations).toEqual([
      { detected_source_language: "EN", text: "Hallo welt" },
      { detected_source_language: "FR", text: "Bonjour le monde" },
    ]);
  });
  it("answers {message}: 403 for a bad key, 400 for an unsupported target language", async () => {
    expect(
      (await postJson(url("/deepl/v2/translate"), { text: ["x"], target_lang: "DE" }, { Authorization: "DeepL-Auth-Key nope" })).status,
    ).toBe(403);
    const bad = await postJson(url("/deepl/v2/translate"), { text: ["x"], target_lang: "XX" }, auth);
    expect(bad).toMatchObject({ status: 400, body: { message: "Value for 'target_lang' not supported." } });
  });
});

describe("OpenAI", () => {
  const auth = { Authorization: `Bearer ${SANDBOX_API_KEYS.openai}` };
  it("completes a chat in the chat.completion format, honouring max_tokens", async () => {
    const res = await postJson(
      url("/openai/v1/chat/completions"),
      { model: "gpt-4o-mini", messages: [{ role: "user", content: "ping me back" }], max_tokens: 3 },
      auth,
    );
    expect(res.status).toBe(200);
    // The reply stops at 3 tokens of 4 bytes; the prompt is 3 (priming) + 3 (message) + 1 ("user") + 3 ("ping me back").
    expect(res.body).toMatchObject({
      object: "chat.completion",
      model: "gpt-4o-mini",
      choices: [{ index: 0, message: { role: "assistant", content: "Sandbox repl" }, finish_reason: "length" }],
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    });
  });
  it("counts usage as the vendors bill it: the chat format's tokens plus the text's, multi-byte text at its UTF-8 size", async () => {
    const res = await postJson(
      url("/openai/v1/chat/completions"),
      {
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "be brief", name: "ops" },
          { role: "user", content: "日本語" },
        ],
      },
      auth,
    );
    // 3 + (3 + 2 "system" + 2 "be brief" + 1 + 1 "ops") + (3 + 1 "user" + 3 for 9 bytes); the whole reply: 27 bytes -> 7.
    expect(res.body).toMatchObject({
      choices: [{ message: { content: "Sandbox reply to: 日本語" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 19, completion_tokens: 7, total_tokens: 26 },
    });
  });
  it("answers {error: {message, type, param, code}}", async () => {
    const unknown = await postJson(
      url("/openai/v1/chat/completions"),
      { model: "gpt-9", messages: [{ role: "user", content: "x" }] },
      auth,
    );
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "model_not_found", type: "invalid_request_error" } } });
    const unauth = await postJson(
      url("/openai/v1/chat/completions"),
      { model: "gpt-4o-mini", messages: [] },
      { Authorization: "Bearer sk-wrong" },
    );
    expect(unauth).toMatchObject({ status: 401, body: { error: { code: "invalid_api_key" } } });
  });
});

describe("Ayrshare", () => {
  const auth = { Authorization: `Bearer ${SANDBOX_API_KEYS.ayrshare}` };
  it("reports weighted length and validity per network", async () => {
    const res = await postJson(url("/ayrshare/api/validate/postLength"), { post: "x".repeat(290) }, auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      twitterWeightedLength: 290,
      twitterValid: false,
      linkedInWeightedLength: 290,
      linkedInValid: true,
      maxCharLimits: { twitter: 280, linkedin: 3000 },
    });
  });
  it('answers {action, status: "error", code, message}', async () => {
    expect((await postJson(url("/ayrshare/api/validate/postLength"), { post: "x" }, { Authorization: "Bearer nope" })).body).toMatchObject({
      status: "error",
      code: 102,
    });
    expect((await postJson(url("/ayrshare/api/validate/postLength"), {}, auth)).body).toMatchObject({ status: "error", code: 101 });
  });
  it("creates a user profile, links its networks on the generateJWT page, and posts as it only with its Profile-Key", async () => {
    const created = await postJson(url("/ayrshare/api/profiles"), { title: "user-1" }, auth);
    expect(created.body).toMatchObject({ status: "success", title: "user-1", refId: expect.any(String), profileKey: expect.any(String) });
    const profileKey = created.body.profileKey as string;
    const post = { post: "Hello", platforms: ["twitter"] };
    // Nothing linked yet: the profile's post is refused; the primary profile (no Profile-Key) has the platform's own accounts.
    expect((await postJson(url("/ayrshare/api/post"), post, { ...auth, "Profile-Key": profileKey })).body).toMatchObject({ code: 156 });
    expect((await postJson(url("/ayrshare/api/post"), post, { ...auth, "Profile-Key": "NOPE" })).status).toBe(403);
    const badKey = { domain: AYRSHARE_PROFILE_DOMAIN, privateKey: "wrong", profileKey };
    expect((await postJson(url("/ayrshare/api/profiles/generateJWT"), badKey, auth)).body).toMatchObject({ status: "error", code: 189 });
    const jwt = await postJson(
      url("/ayrshare/api/profiles/generateJWT"),
      { domain: AYRSHARE_PROFILE_DOMAIN, privateKey: AYRSHARE_PRIVATE_KEY, profileKey },
      auth,
    );
    expect(jwt.body).toMatchObject({ status: "success", title: "user-1", url: expect.stringContaining("/ayrshare/link?") });
    const page = await fetch(`${jwt.body.url as string}&platforms=twitter`);
    expect([page.status, await page.text()]).toEqual([200, "Linked: twitter"]);
    const sent = await postJson(url("/ayrshare/api/post"), post, { ...auth, "Profile-Key": profileKey });
    expect(sent.body).toMatchObject({ status: "success", postIds: [{ platform: "twitter", status: "success" }] });
    expect((await fetch(url("/ayrshare/link?jwt=forged&platforms=linkedin"))).status).toBe(401);
  });
});

describe("mounts per network", () => {
  it("serves a paid vendor directly with its own key, and a free API without one", async () => {
    expect((await postJson(url("/exa/answer"), { query: "q" })).body).toMatchObject({ tag: "INVALID_API_KEY" });
    const exa = await postJson(url("/exa/answer"), { query: "q" }, { "x-api-key": SANDBOX_API_KEYS.exa });
    expect(exa.status).toBe(200);
    const time = await fetch(url("/timeapi/api/timezone/zone?timeZone=UTC"));
    expect(time.status).toBe(200);
    expect(
      sandbox()
        .control.calls()
        .map((c) => [c.provider, c.network, c.status]),
    ).toEqual([
      ["exa", "direct", 401],
      ["exa", "direct", 200],
      ["timeapi", "direct", 200],
    ]);
  });

  it("puts a payment gate in front of a key-billed vendor on its x402 and MPP mounts", async () => {
    const email = { from: "hi@acme.dev", to: "a@example.com", subject: "Hi", text: "Hi" };
    expect((await postJson(url("/mpp/resend/emails"), email)).status).toBe(402);
    expect((await postJson(url("/x402/resend/emails"), email)).headers.get("payment-required")).not.toBeNull();
    expect(
      sandbox()
        .control.calls("resend")
        .map((c) => c.network),
    ).toEqual(["mpp", "agentcash"]);
  });
});

describe("AgentMail", () => {
  const auth = { Authorization: `Bearer ${SANDBOX_API_KEYS.agentmail}` };
  it("creates an inbox and sends from it; unknown inboxes are 404", async () => {
    const inbox = await postJson(url("/agentmail/v0/inboxes"), { username: "Sender", display_name: "Sender" }, auth);
    expect(inbox.body).toMatchObject({ inbox_id: "sender@agentmail.to", email: "sender@agentmail.to", display_name: "Sender" });
    const sent = await postJson(
      url("/agentmail/v0/inboxes/sender%40agentmail.to/messages/send"),
      { to: "a@example.com", subject: "Hi", text: "Hi", attachments: [{ filename: "a.txt", content: "aGk=" }] },
      auth,
    );
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ message_id: expect.stringMatching(/^<.+@agentmail\.to>$/), thread_id: expect.any(String) });
    expect(
      (await postJson(url("/agentmail/v0/inboxes/nobody@agentmail.to/messages/send"), { to: "a@example.com", text: "x" }, auth)).body,
    ).toMatchObject({ name: "NotFoundError" });
  });

  it("prices a message send on the MPP mount far below an inbox", async () => {
    const res = await postJson(url("/mpp/agentmail/v0/inboxes/x@agentmail.to/messages/send"), { to: "a@example.com", text: "x" });
    const [ch] = (res.headers.get("www-authenticate") ?? "").match(/request="([^"]+)"/)?.slice(1) ?? [];
    expect(JSON.parse(Buffer.from(ch as string, "base64url").toString())).toMatchObject({ amount: "2000" });
  });
});
