// Recommend through the gateway over the real router, ledger and shipped catalog: the spec's
// response shape, honest canExecuteNow, and never a balance change.
import { validateResponse as validate } from "./validate-response";
import { startBackedSystem, TEST_USER, type BackedSystem } from "./backed-system";

const RECOMMEND = "/domains/{domainKey}/capabilities/{capabilityId}/recommend";

describe("POST recommend", () => {
  let sys: BackedSystem;
  const recommend = (domain: string, id: string, body?: unknown) =>
    sys.authed(`/domains/${domain}/capabilities/${id}/recommend`, {
      method: "POST",
      headers: { "content-type": "application/json" },
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
