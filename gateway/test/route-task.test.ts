// Intent routing over real HTTP, on the real router, catalog (shipped data) and ledger: a task in
// words finds its capability, a task nothing does abstains, the domain endpoint stays in its domain,
// the words' constraints come back, a bad body is a 400 naming the field, and every domain with a
// live or recommend-only capability advertises a working routeEndpoint.
import { validateResponse as validate } from "./validate-response";
import { startBackedSystem, TEST_KEY, type BackedSystem } from "./backed-system";

describe("POST /route and POST /domains/{domainKey}/route", () => {
  let sys: BackedSystem;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(sys.gw.baseUrl + path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys.stop());

  it("finds email.send for a task that names no domain word, with the answer's every field, without a key", async () => {
    const res = await post("/route", { task: "tell ana@example.com the invoice is attached" });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(validate("post", "/route", 200, body)).toEqual([]);
    expect(body.abstained).toBe(false);
    expect(body.matches[0]).toMatchObject({
      capabilityKey: "email.send",
      domainKey: "email",
      capabilityId: "send",
      label: "Email Send",
      status: "live",
      contractPath: "/api/agentic-api/domains/email/capabilities/send/contract",
      recommendPath: "/api/agentic-api/domains/email/capabilities/send/recommend",
    });
    expect(typeof body.matches[0].startingPriceCredits).toBe("number");
    expect(body.matches[0].score).toBeGreaterThanOrEqual(0.5);
    expect(body.matches[0].score).toBeLessThanOrEqual(1);
    expect(body.matches[0].why).toMatch(/invoic/);
    expect(body.matches[0]).not.toHaveProperty("canExecuteNow");
    expect(body.constraints).toEqual({ optimizationPreferences: [], fields: { to: "ana@example.com" } });
    expect(body.matches.length).toBeLessThanOrEqual(5);
    expect(typeof body.catalogVersion).toBe("string");
  });

  it("abstains on a task nothing in the catalog does, still listing the nearest below the threshold", async () => {
    const res = await post("/route", { task: "open a pull request that fixes the typo", limit: 3 });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.abstained).toBe(true);
    expect(body.matches.length).toBeLessThanOrEqual(3);
    for (const m of body.matches) expect(m.score).toBeLessThan(0.5);
  });

  it("reads cheapest and under 20 credits as constraints", async () => {
    const body = (await (await post("/route", { task: "send an email to bob@corp.com, cheapest route, under 20 credits" })).json()) as any;
    expect(body.matches[0].capabilityKey).toBe("email.send");
    expect(body.constraints).toEqual({ optimizationPreferences: ["cost"], maxPriceCredits: 20, fields: { to: "bob@corp.com" } });
    const cents = (await (await post("/route", { task: "verify an email address for less than 5 cents via ZeroBounce" })).json()) as any;
    expect(cents.constraints).toMatchObject({ maxPriceCredits: 50, provider: "zerobounce" });
  });

  it("never lists another domain's capability on the domain endpoint", async () => {
    for (const task of ["send an email to my boss", "what time is it in Tokyo", "scrape this page"]) {
      const res = await post("/domains/geo/route", { task, limit: 20 });
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(validate("post", "/domains/{domainKey}/route", 200, body)).toEqual([]);
      for (const m of body.matches) expect(m.domainKey).toBe("geo");
    }
    const time = (await (await post("/domains/geo/route", { task: "what time is it in Tokyo" })).json()) as any;
    expect([time.abstained, time.matches[0].capabilityKey]).toEqual([false, "geo.time.current"]);
    const unknown = await post("/domains/nowhere/route", { task: "what time is it in Tokyo" });
    expect([unknown.status, ((await unknown.json()) as any).code]).toEqual([404, "DOMAIN_NOT_FOUND"]);
  });

  it("refuses a missing, empty, too long or non-string task and a bad limit with a 400 naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "task"],
      [{ task: "" }, "task"],
      [{ task: "   " }, "task"],
      [{ task: 42 }, "task"],
      [{ task: "x".repeat(2001) }, "task"],
      [{ task: "send an email", limit: 0 }, "limit"],
      [{ task: "send an email", limit: 21 }, "limit"],
      [{ task: "send an email", limit: "5" }, "limit"],
      [{ task: "send an email", topK: 3 }, "topK"],
      [[], "body"],
    ];
    for (const [body, field] of cases) {
      const res = await post("/route", body);
      const error = (await res.json()) as any;
      expect([res.status, error.code, error.error.startsWith(`${field}:`)]).toEqual([400, "INVALID_INPUT", true]);
      expect(typeof error.hint).toBe("string");
    }
    const notJson = await post("/route", "{task:");
    expect([notJson.status, ((await notJson.json()) as any).code]).toEqual([400, "INVALID_JSON"]);
  });

  it("says whether the caller can run the top match now when a key is sent, and refuses a bad key", async () => {
    const keyed = (await (
      await post("/route", { task: "what time is it in Tokyo" }, { authorization: `Bearer ${TEST_KEY}` })
    ).json()) as any;
    expect(typeof keyed.matches[0].canExecuteNow).toBe("boolean");
    for (const m of keyed.matches.slice(1)) expect(m).not.toHaveProperty("canExecuteNow");
    const bad = await post(
      "/route",
      { task: "what time is it in Tokyo" },
      { authorization: "Bearer aak_NotAKeyThatExists000000000000000000" },
    );
    expect(bad.status).toBe(401);
  });

  it("turns intent routing on, with a working routeEndpoint, on every domain with a live or recommend-only capability", async () => {
    const domains = (await (await fetch(`${sys.gw.baseUrl}/domains`)).json()) as any[];
    expect(domains.length).toBeGreaterThan(10);
    for (const d of domains) {
      const capabilities = (await (await fetch(`${sys.gw.baseUrl}/domains/${d.domainKey}/capabilities`)).json()) as any[];
      const routable = capabilities.some((c) => c.status === "live" || c.status === "recommend_only");
      expect([d.domainKey, d.supportsIntentRouting, d.routeEndpoint]).toEqual([
        d.domainKey,
        routable,
        routable ? `/api/agentic-api/domains/${d.domainKey}/route` : null,
      ]);
      if (!routable) continue;
      const origin = new URL(sys.gw.baseUrl).origin;
      const res = await fetch(origin + d.routeEndpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task: capabilities[0].label }),
      });
      const body = (await res.json()) as any;
      expect([d.domainKey, res.status]).toEqual([d.domainKey, 200]);
      for (const m of body.matches) expect(m.domainKey).toBe(d.domainKey);
    }
  });
});
