// Recommend through the gateway over the real router, ledger and shipped catalog: the spec's
// response shape, honest canExecuteNow, and never a balance change.
import { validateResponse as validate } from "./validate-response";
import { startBackedSystem, TEST_KEY, TEST_USER, type BackedSystem } from "./backed-system";
import { sendWithRepeatedHeader } from "./repeated-header";

const RECOMMEND = "/domains/{domainKey}/capabilities/{capabilityId}/recommend";

describe("POST recommend", () => {
  let sys: BackedSystem;
  const recommend = (domain: string, id: string, body?: unknown, headers: Record<string, string> = {}) =>
    sys.authed(`/domains/${domain}/capabilities/${id}/recommend`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys.stop());

  it("answers email.send with every spec field, valid against the OpenAPI document", async () => {
    const res = await recommend("email", "send", {
      agentName: "alpha_agent",
      optimizationPreferences: ["cost", "quality"],
      tracking: true,
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(validate("post", RECOMMEND, 200, body)).toEqual([]);
    expect(body).toMatchObject({
      success: true,
      productKey: "email.send",
      preferenceSource: "request",
      optimizationPreferences: ["cost", "quality"],
    });
    expect(body).not.toHaveProperty("catalogVersion");
    const routeKeys = body.candidates.map((c: any) => c.routeKey);
    expect(routeKeys).toEqual(expect.arrayContaining(["email.send.resend", "email.send.sendgrid", "email.send.postmark"]));
    // tracking was asked for: the pick supports it.
    const picked = body.candidates.find((c: any) => c.routeKey === body.recommendedRouteKey);
    expect(picked.supportedFeatures).toContain("tracking");
  });

  it("reads the agent from the Agent-Name header as execute does: its goals are remembered under that name", async () => {
    const asked = await recommend("email", "send", { optimizationPreferences: ["speed", "cost"] }, { "agent-name": "header_agent" });
    expect(await asked.json()).toMatchObject({ preferenceSource: "request", optimizationPreferences: ["speed", "cost"] });
    const byBody = (await (await recommend("email", "send", { agentName: "header_agent" })).json()) as any;
    expect(byBody).toMatchObject({ preferenceSource: "agent", optimizationPreferences: ["speed", "cost"] });
    const byHeader = (await (await recommend("email", "send", {}, { "agent-name": "header_agent" })).json()) as any;
    expect(byHeader).toMatchObject({ preferenceSource: "agent", optimizationPreferences: ["speed", "cost"] });
  });

  it("refuses a body agentName and an Agent-Name naming two agents, and a repeated Agent-Name, with 400", async () => {
    const two = await recommend("email", "send", { agentName: "one" }, { "agent-name": "other" });
    expect([two.status, ((await two.json()) as any).code]).toEqual([400, "INVALID_INPUT"]);
    const same = await recommend("email", "send", { agentName: "one" }, { "agent-name": "one" });
    expect(same.status).toBe(200);
    const auth = { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" };
    const repeated = await sendWithRepeatedHeader(
      `${sys.gw.baseUrl}/domains/email/capabilities/send/recommend`,
      { method: "POST", headers: auth, body: "{}" },
      "Agent-Name",
    );
    expect([repeated.status, repeated.json.code, repeated.json.error]).toEqual([
      400,
      "INVALID_INPUT",
      "Agent-Name: must be sent once, not 2 times",
    ]);
    const wallet = await sendWithRepeatedHeader(`${sys.gw.baseUrl}/wallet`, { method: "GET", headers: auth }, "Agent-Name");
    expect([wallet.status, wallet.json.code]).toEqual([400, "INVALID_INPUT"]);
    expect(validate("get", "/wallet", 400, wallet.json)).toEqual([]);
    expect(validate("post", RECOMMEND, 400, repeated.json)).toEqual([]);
  });

  it("refuses an Agent-Name that is not an agent name with a 400 naming the header, on every call that reads it", async () => {
    const headers = { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json", "agent-name": "a".repeat(101) };
    const calls: Array<[string, RequestInit]> = [
      ["/domains/email/capabilities/send/recommend", { method: "POST", headers, body: "{}" }],
      [
        "/domains/email/capabilities/send/execute",
        { method: "POST", headers, body: JSON.stringify({ to: "ada@example.com", subject: "Hi", text: "x" }) },
      ],
      [
        "/domains/email/capabilities/send/quote",
        { method: "POST", headers, body: JSON.stringify({ to: "ada@example.com", subject: "Hi", text: "x" }) },
      ],
      ["/wallet", { headers }],
    ];
    for (const [path, init] of calls) {
      const res = await fetch(`${sys.gw.baseUrl}${path}`, init);
      expect([path, res.status, await res.json()]).toEqual([
        path,
        400,
        expect.objectContaining({ code: "INVALID_INPUT", error: "Agent-Name: must be 1 to 100 characters, without control characters" }),
      ]);
    }
  });

  it("accepts an empty body and applies defaults", async () => {
    const res = await recommend("email", "send");
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.preferenceSource).toBe("default");
    expect(validate("post", RECOMMEND, 200, body)).toEqual([]);
  });

  it("accepts execute fields in the body (html is content here, not a feature ask)", async () => {
    const res = await recommend("email", "send", { to: "ada@example.com", subject: "hi", html: "<p>hi</p>", tracking: false });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(validate("post", RECOMMEND, 200, body)).toEqual([]);
    expect(body.productKey).toBe("email.send");
  });

  it("is honest: the gated text.analyze route cannot execute now, with reasons", async () => {
    const body = (await (await recommend("text", "analyze", {})).json()) as any;
    expect(body.canExecuteNow).toBe(false);
    expect(body.blockingRequirements).toContain("CAPABILITY_GATED");
    expect(body.nextActions.length).toBeGreaterThan(0);
    expect(body).not.toHaveProperty("bestExecutableRouteKey");
  });

  it("never moves a balance", async () => {
    await fetch(`${sys.gw.baseUrl}/dev/init`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: TEST_USER, balanceCredits: 40 }),
    });
    const before = (await (await sys.authed("/wallet")).json()) as any;
    for (let i = 0; i < 20; i++) expect((await recommend("email", "send", { optimizationPreferences: ["speed"] })).status).toBe(200);
    const after = (await (await sys.authed("/wallet")).json()) as any;
    expect(after.balanceCredits).toBe(before.balanceCredits);
    const journal = await sys.ledger.client.listJournal({ userId: TEST_USER });
    expect(journal.entries.map((e) => e.kind)).toEqual(["grant"]);
  });
});
