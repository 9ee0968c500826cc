// Execute's refusals and failures through the gateway: each maps to its documented HTTP status and
// UPPER_SNAKE code with a hint naming what to fix, matches the OpenAPI document, and charges nothing.
import { publishOutcome } from "@agentic/router/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { sendWithRepeatedHeader } from "./repeated-header";
import {
  emailBody,
  execute,
  EXECUTE_PATH,
  expectBalanceEqualsJournal,
  journalKinds,
  newUser,
  settled,
  usage,
  type TestUser,
} from "./execute-helpers";
import { validateResponse } from "./validate-response";

describe("POST execute (errors)", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem({ executorEnv: { PROVIDER_TIMEOUT_MS: "500" } });
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 1_000);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  /** Expects the status and code, no provider call, and no credit movement but the grant. */
  async function refused(domain: string, id: string, body: unknown, status: number, code: string, headers: Record<string, string> = {}) {
    const res = await execute(sys, user, domain, id, body, headers);
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(res.body).toMatchObject({ success: false, error: expect.any(String), hint: expect.any(String) });
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
    return res.body;
  }

  it("answers 401 without a valid key, before anything else", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/domains/email/capabilities/send/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(emailBody()),
    });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([401, "AGENTIC_API_KEY_REQUIRED"]);
    expect(sys.sandbox.control.calls()).toEqual([]);
  });

  it("answers 404 for an unknown domain or capability", async () => {
    await refused("mail", "send", emailBody(), 404, "DOMAIN_NOT_FOUND");
    await refused("email", "sent", emailBody(), 404, "CAPABILITY_NOT_FOUND");
  });

  it("answers 400 INVALID_JSON for a body that is not JSON, and INVALID_INPUT for one that is not an object", async () => {
    await refused("email", "send", "{not json", 400, "INVALID_JSON");
    await refused("email", "send", "[1, 2]", 400, "INVALID_INPUT");
  });

  it.each([
    ["email", "send", { subject: "Hi", text: "x" }, "to", "is required"],
    ["email", "send", emailBody({ to: "ada-at-example.com" }), "to", "email address"],
    ["email", "send", emailBody({ cc: ["ok@example.com", "not an address"] }), "cc[1]", "email address"],
    ["email", "send", emailBody({ bcc: "x@example.com", priority: "high" }), "priority", "unknown field"],
    ["email", "send", emailBody({ subject: "s".repeat(999) }), "subject", "at most 998 characters"],
    ["email", "send", { to: "ada@example.com", subject: "Hi" }, "html|text", "at least one of html, text"],
    ["email", "send", emailBody({ allowFallback: "yes" }), "allowFallback", "true or false"],
    ["broadcast", "message-quote", { channels: ["x", "myspace"], text: "hello" }, "channels[1]", "one of x, linkedin"],
    ["search", "answer", { query: "mpp", maxResults: 50 }, "maxResults", "at most 20"],
    ["search", "answer", { query: "mpp", includeDomains: ["mpp.dev"], provider: "exa" }, "includeDomains", "not supported"],
    ["geo", "time-current", { timezone: "Mars/Olympus_Mons" }, "timezone", "IANA time zone"],
    ["geo", "time-convert", { datetime: "2026-02-30T10:00:00", fromTimezone: "UTC", toTimezone: "Asia/Tokyo" }, "datetime", "ISO 8601"],
    [
      "models",
      "chat-complete",
      { model: "deepseek-chat", messages: [{ role: "robot", content: "hi" }] },
      "messages[0].role",
      "one of system, user",
    ],
    ["models", "chat-complete", { model: "deepseek-chat", messages: [], temperature: 3 }, "temperature", "at most 2"],
  ])("answers 400 INVALID_INPUT for %s.%s %j, naming %s in the hint", async (domain, id, body, field, problem) => {
    const res = await refused(domain, id, body, 400, "INVALID_INPUT");
    expect(res.error).toContain(`${field}: `);
    expect(res.error).toContain(problem);
    expect(res.hint).toContain(`'${field}'`);
  });

  it("answers 400 UNKNOWN_PROVIDER and UNKNOWN_ROUTE for pins that name nothing of the capability", async () => {
    const provider = await refused("email", "send", emailBody({ provider: "mailgun" }), 400, "UNKNOWN_PROVIDER");
    expect(provider.hint).toContain("resend, sendgrid, postmark");
    const route = await refused("email", "send", emailBody({ routeKey: "email.send.mailgun" }), 400, "UNKNOWN_ROUTE");
    expect(route.hint).toContain("email.send.resend");
  });

  it("answers 400 INVALID_INPUT for a small body nested 5,000 levels deep (not a 500), and 415 for a form body", async () => {
    const deep = await refused(
      "email",
      "send",
      `{"to":"ada@example.com","data":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
      400,
      "INVALID_INPUT",
    );
    expect(deep.error).toMatch(/^body: .*32 levels/);
    const form = await refused("email", "send", "to=ada%40example.com&subject=Hi&text=x", 415, "UNSUPPORTED_MEDIA_TYPE", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(form.hint).toBe("Send Content-Type: application/json");
  });

  it.each(["Idempotency-Key", "Agent-Name"])("answers 400 for a repeated %s (which one applies would be ambiguous)", async (name) => {
    const body = JSON.stringify(emailBody());
    const { status, json } = await sendWithRepeatedHeader(
      `${sys.gw.baseUrl}/domains/email/capabilities/send/execute`,
      { method: "POST", headers: { authorization: `Bearer ${user.key}`, "content-type": "application/json" }, body },
      name,
    );
    expect([status, json.code]).toEqual([400, "INVALID_INPUT"]);
    expect(json.error).toContain(`${name}: must be sent once`);
    expect(validateResponse("post", EXECUTE_PATH, status, json)).toEqual([]);
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
  });

  it("answers 400 for an Idempotency-Key longer than 255 characters", async () => {
    const res = await refused("email", "send", emailBody(), 400, "INVALID_INPUT", { "idempotency-key": "k".repeat(256) });
    expect(res.error).toContain("Idempotency-Key");
  });

  it("answers 409 CAPABILITY_GATED for recommend-only and planned capabilities, with the blocking requirement", async () => {
    const analyze = await refused("text", "analyze", { text: "I love it" }, 409, "CAPABILITY_GATED");
    expect(analyze.error).toContain("text.analyze is recommend-only");
    await refused("media", "video-generate", { prompt: "a lighthouse at dawn" }, 409, "CAPABILITY_GATED");
  });

  it("answers 409 CAPABILITY_GATED for a pinned route that is not live", async () => {
    const res = await refused(
      "geo",
      "time-current",
      { timezone: "Europe/Lisbon", routeKey: "geo.time.current.googlemaps.mpp" },
      409,
      "CAPABILITY_GATED",
    );
    expect(res.error).toContain("geo.time.current.googlemaps.mpp");
  });

  it("answers 400 INVALID_INPUT naming inboxId for the owned-inbox route pinned without an inbox", async () => {
    // (With an inboxId this account does not own it would be 404: see owned-resources-are-their-owners-only.)
    const res = await refused("email", "send", emailBody({ provider: "agentmail" }), 400, "INVALID_INPUT");
    expect(res.error).toContain("inboxId");
  });

  it("answers 402 CREDITS_REQUIRED when the wallet is short, without calling the provider", async () => {
    user = await newUser(sys, 9);
    const res = await refused("email", "send", emailBody({ provider: "resend" }), 402, "CREDITS_REQUIRED");
    expect(res.error).toContain("costs 10 credits; the wallet has 9 available");
  });

  it("answers 502 PROVIDER_ERROR when the pinned provider fails, charging nothing", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }));
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(res.body.error).toContain("HTTP 503 from resend");
    expect(res.body.hint).toContain("allowFallback: true");
    await settled(sys, user.userId);
    expect(await journalKinds(sys, user)).toEqual(["grant", "hold", "release"]);
  });

  it("answers 504 PROVIDER_TIMEOUT when the provider does not answer in time, and does not fall back", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "timeout" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend", allowFallback: true }));
    expect([res.status, res.body.code]).toEqual([504, "PROVIDER_TIMEOUT"]);
    expect(res.body.hint).toContain("may still have completed");
    // The vendor may have sent the email: another route would send it twice.
    expect(sys.sandbox.control.calls().map((c) => c.provider)).toEqual(["resend"]);
    await settled(sys, user.userId);
    expect((await usage(sys, user))[0]).toMatchObject({ status: "failed", creditsCharged: 0, errorCode: "PROVIDER_TIMEOUT" });
  });

  it("answers 400 PROVIDER_REJECTED_INPUT when the provider refuses the request, without falling back", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "fail", status: 422 });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend", allowFallback: true }));
    expect([res.status, res.body.code]).toEqual([400, "PROVIDER_REJECTED_INPUT"]);
    expect(sys.sandbox.control.calls().map((c) => c.provider)).toEqual(["resend"]);
  });

  it("answers 503 ROUTE_UNAVAILABLE when every route's breaker is open", async () => {
    for (const routeKey of ["translation.text.translate.deepl", "translation.text.translate.googletranslate"])
      for (let i = 0; i < 5; i++) await publishOutcome(sys.router.nc, { routeKey, ok: false, errorKind: "http_5xx" });
    // Both rank: recommend in the router, execute in the executor, each from the same outcomes.
    await Promise.all([sys.router.waitForOutcomes(10), sys.executor.waitForOutcomes(10)]);
    const res = await refused("translation", "text-translate", { text: "Hallo", targetLanguage: "en" }, 503, "ROUTE_UNAVAILABLE");
    expect(res.error).toContain("ROUTE_UNHEALTHY");
  });
});
