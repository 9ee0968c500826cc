// Execute through the gateway over the real executor, router, ledger, catalog and provider sandbox:
// every live capability on each of its live routes answers a spec-valid GenericExecutionResponse,
// charges the price of the route that served it, and leaves the balance equal to the journal.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody, execute, expectBalanceEqualsJournal, newUser, usage, type TestUser } from "./execute-helpers";

describe("POST execute (success)", () => {
  let sys: BackedSystem;
  let user: TestUser;
  /** Price of each route, as the catalog lists it. */
  const prices = new Map<string, number>();

  beforeAll(async () => {
    sys = await startBackedSystem();
    for (const domain of ["email", "search", "web", "enrichment", "geo", "broadcast", "translation", "models"]) {
      const routes = (await (await fetch(`${sys.gw.baseUrl}/domains/${domain}/routes`)).json()) as Array<{
        routeKey: string;
        startingCostCredits: number;
      }>;
      for (const r of routes) prices.set(r.routeKey, r.startingCostCredits);
    }
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 10_000);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  /** Executes, expects 200 from `routeKey`, and checks the charge is the route's catalog price. */
  async function ok(domain: string, id: string, body: unknown, routeKey: string, headers: Record<string, string> = {}) {
    const res = await execute(sys, user, domain, id, body, headers);
    expect([res.status, res.body.code]).toEqual([200, undefined]);
    expect(res.body).toMatchObject({
      success: true,
      routeKey,
      provider: routeKey.split(".").at(routeKey.endsWith(".mpp") || routeKey.endsWith(".agentcash") ? -2 : -1),
    });
    expect(res.body.creditsCharged).toBe(prices.get(routeKey));
    expect(res.headers.get("execution-id")).toMatch(/^exe_/);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    return res.body;
  }

  it("sends an email on the router's best route when nothing is pinned (status sent)", async () => {
    const body = await ok("email", "send", emailBody(), "email.send.resend");
    expect(body.status).toBe("sent");
    expect(body.providerMessageId).toEqual(expect.any(String));
    expect(body.data).toEqual({ messageId: body.providerMessageId });
    expect(Object.keys(body).sort()).toEqual([
      "creditsCharged",
      "data",
      "decision",
      "provider",
      "providerMessageId",
      "routeKey",
      "status",
      "success",
    ]);
    // The router's best route served at once: one attempt, every other route named with why it was not tried.
    expect(body.decision).toMatchObject({ servedRouteKey: body.routeKey, attempts: [{ routeKey: body.routeKey, outcome: "ok" }] });
    expect(body.decision.notTried.map((n: { routeKey: string }) => n.routeKey)).not.toContain(body.routeKey);
  });

  it("accepts the capability input inside an `input` wrapper, with the routing controls beside it", async () => {
    const body = await ok(
      "email",
      "send",
      { input: { to: "ada@example.com", subject: "Hi", text: "Hello" }, routeKey: "email.send.postmark" },
      "email.send.postmark",
    );
    expect(body.status).toBe("sent");
  });

  it("buys an inbox over MPP (status created)", async () => {
    const body = await ok(
      "email",
      "inbox-buy",
      { username: "research-agent", displayName: "Research Agent" },
      "email.inbox.buy.agentmail.mpp",
    );
    expect(body.status).toBe("created");
    expect(body.data).toMatchObject({ inboxId: expect.stringContaining("research-agent@"), displayName: "Research Agent" });
  });

  it("answers a search question over MPP, with citations", async () => {
    const body = await ok("search", "answer", { query: "What is the Machine Payments Protocol?", maxResults: 2 }, "search.answer.exa.mpp");
    expect(body.status).toBe("succeeded");
    expect(body.data.answer).toEqual(expect.any(String));
    expect(body.data.citations.length).toBeGreaterThan(0);
    expect(body.data.citations.length).toBeLessThanOrEqual(2);
  });

  it("extracts named fields from a page over MPP, and on the cheaper direct route the router prefers", async () => {
    const paid = await ok(
      "web",
      "extract",
      { url: "https://example.com/docs", fields: ["title", "pricing"], routeKey: "web.extract.firecrawl.mpp" },
      "web.extract.firecrawl.mpp",
    );
    expect(Object.keys(paid.data).sort()).toEqual(["pricing", "title"]);
    const direct = await ok(
      "web",
      "extract",
      { url: "https://example.com/docs", schema: { type: "object", properties: { title: { type: "string" } } } },
      "web.extract.firecrawl",
    );
    expect(Object.keys(direct.data)).toEqual(["title"]);
  });

  it("searches people over x402 (agentcash)", async () => {
    const body = await ok("enrichment", "people-search", { titles: ["engineer"], perPage: 5 }, "enrichment.people.search.apollo.agentcash");
    expect(body.data.people.length).toBeGreaterThan(0);
    expect(body.data.people[0].title.toLowerCase()).toContain("engineer");
  });

  it("tells the current time of a zone and converts a time across the 2026 US DST switch, over MPP", async () => {
    const now = await ok("geo", "time-current", { timezone: "Asia/Kolkata" }, "geo.time.current.timeapi.mpp");
    expect(now.data).toMatchObject({ timezone: "Asia/Kolkata", utcOffset: "+05:30", isDst: false });
    const converted = await ok(
      "geo",
      "time-convert",
      { datetime: "2026-03-08T01:59:00", fromTimezone: "America/New_York", toTimezone: "Asia/Kolkata" },
      "geo.time.convert.timeapi.mpp",
    );
    expect(converted.data.target).toMatchObject({ datetime: "2026-03-08T12:29:00", timezone: "Asia/Kolkata" });
  });

  it("quotes a broadcast per channel without posting (status quoted)", async () => {
    const body = await ok(
      "broadcast",
      "message-quote",
      { channels: ["x", "linkedin"], text: "We just shipped v2 of our API." },
      "broadcast.message.quote.ayrshare",
    );
    expect(body.status).toBe("quoted");
    expect(body.data).toMatchObject({
      approvalRequired: true,
      perChannel: [expect.objectContaining({ channel: "x", valid: true }), expect.objectContaining({ channel: "linkedin", valid: true })],
    });
  });

  it("translates a text", async () => {
    const body = await ok(
      "translation",
      "text-translate",
      { text: "Where is the train station?", targetLanguage: "de", provider: "deepl" },
      "translation.text.translate.deepl",
    );
    expect(body.data.translations[0].text).toEqual(expect.any(String));
  });

  it("completes a chat on DeepSeek over MPP and on OpenAI with our key", async () => {
    const messages = [{ role: "user", content: "Say hi in five words." }];
    const deepseek = await ok(
      "models",
      "chat-complete",
      { model: "deepseek-chat", messages, max_tokens: 64, routeKey: "models.chat.complete.deepseek.mpp" },
      "models.chat.complete.deepseek.mpp",
    );
    expect(deepseek.data.completionText).toEqual(expect.any(String));
    const openai = await ok(
      "models",
      "chat-complete",
      { model: "gpt-4o-mini", messages, provider: "openai" },
      "models.chat.complete.openai",
    );
    expect(openai.data).toMatchObject({ completionText: expect.any(String), model: "gpt-4o-mini" });
  });

  it("records the Agent-Name on the usage item", async () => {
    await ok("email", "send", emailBody({ provider: "sendgrid" }), "email.send.sendgrid", { "agent-name": "alpha_agent" });
    const items = await usage(sys, user);
    expect(items[0]).toMatchObject({ routeKey: "email.send.sendgrid", agentName: "alpha_agent", status: "succeeded" });
  });
});
