// Every catalog endpoint over real HTTP → real gRPC, each response checked against the OpenAPI
// document, and the derived fields checked against the data they derive from.
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { validateResponse as validate } from "./validate-response";
import { startTestGateway, type TestGateway } from "./harness";

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe("catalog endpoints", () => {
  let catalog: TestCatalog;
  let gw: TestGateway;
  beforeAll(async () => {
    catalog = await startTestCatalog();
    gw = await startTestGateway({ catalogAddress: catalog.address });
  });
  afterAll(async () => {
    await gw.stop();
    await catalog.stop();
  });

  it("GET /domains lists every domain, valid against the OpenAPI document", async () => {
    const { status, body } = await getJson(`${gw.baseUrl}/domains`);
    expect(status).toBe(200);
    expect(validate("get", "/domains", 200, body)).toEqual([]);
    expect(body).toHaveLength(17);
  });

  it("every domain's capabilitiesPath and routesPath are server-relative paths that work", async () => {
    const { body: domains } = await getJson(`${gw.baseUrl}/domains`);
    for (const d of domains) {
      const caps = await getJson(gw.origin + d.capabilitiesPath);
      expect(caps.status).toBe(200);
      expect(validate("get", "/domains/{domainKey}/capabilities", 200, caps.body)).toEqual([]);
      expect(caps.body).toHaveLength(d.totalCapabilityCount);
      expect(caps.body.filter((c: any) => c.status === "live")).toHaveLength(d.liveCapabilityCount);

      const routes = await getJson(gw.origin + d.routesPath);
      expect(routes.status).toBe(200);
      expect(validate("get", "/domains/{domainKey}/routes", 200, routes.body)).toEqual([]);
      const live = routes.body.filter((r: any) => r.status === "live").map((r: any) => r.startingCostCredits);
      if (live.length) expect(d.startingPriceCredits).toBe(Math.min(...live));
      else expect(d.startingPriceCredits).toBeUndefined();
      expect(d.status).toBe(d.liveCapabilityCount > 0 ? "live" : "pending");
    }
  });

  it("GET /domains/{d} and every capability, its routes and contract answer and validate", async () => {
    const { body: domains } = await getJson(`${gw.baseUrl}/domains`);
    let capabilities = 0;
    for (const d of domains) {
      const one = await getJson(`${gw.baseUrl}/domains/${d.domainKey}`);
      expect(one.status).toBe(200);
      expect(validate("get", "/domains/{domainKey}", 200, one.body)).toEqual([]);
      expect(one.body).toEqual(d);

      const { body: caps } = await getJson(gw.origin + d.capabilitiesPath);
      for (const c of caps) {
        capabilities++;
        const cap = await getJson(`${gw.baseUrl}/domains/${d.domainKey}/capabilities/${c.capabilityId}`);
        expect(validate("get", "/domains/{domainKey}/capabilities/{capabilityId}", 200, cap.body)).toEqual([]);
        expect(cap.body).toEqual(c);

        const routes = await getJson(gw.origin + c.routesEndpoint);
        expect(routes.status).toBe(200);
        expect(validate("get", "/domains/{domainKey}/capabilities/{capabilityId}/routes", 200, routes.body)).toEqual([]);
        expect(routes.body.length).toBeGreaterThan(0);
        expect(new Set(routes.body.map((r: any) => r.providerKey))).toEqual(new Set(c.supportedProviders));

        const contract = await getJson(gw.origin + c.contractEndpoint);
        expect(contract.status).toBe(200);
        expect(validate("get", "/domains/{domainKey}/capabilities/{capabilityId}/contract", 200, contract.body)).toEqual([]);
        expect(contract.body).toMatchObject({ capabilityKey: c.capabilityKey, contractStatus: c.contractStatus });
      }
    }
    expect(capabilities).toBeGreaterThanOrEqual(45);
  });

  it("email.send has the contract fields clients of the hosted product rely on", async () => {
    const { body } = await getJson(`${gw.baseUrl}/domains/email/capabilities/send/contract`);
    const names = (op: any) => op.fields.map((f: any) => f.name);
    expect(names(body.execute)).toEqual(
      expect.arrayContaining(["to", "subject", "html", "text", "from", "replyTo", "cc", "bcc", "provider", "routeKey", "allowFallback"]),
    );
    expect(body.execute.requiredFields).toEqual(expect.arrayContaining(["to", "subject"]));
    expect(names(body.recommend)).toEqual(expect.arrayContaining(["agentName", "optimizationPreferences", "tracking"]));
    const prefs = body.recommend.fields.find((f: any) => f.name === "optimizationPreferences");
    expect(prefs.enumValues).toEqual(expect.arrayContaining(["cost", "reliability", "speed", "quality"]));
  });

  it("route entries carry no internal fields", async () => {
    const { body } = await getJson(`${gw.baseUrl}/domains/email/capabilities/send/routes`);
    for (const r of body) {
      expect(r).not.toHaveProperty("priors");
      expect(r).not.toHaveProperty("executionGated");
      expect(r).not.toHaveProperty("priceSource");
    }
    expect(body.map((r: any) => r.routeKey)).toEqual(expect.arrayContaining(["email.send.resend", "email.send.sendgrid"]));
  });

  it("serves the OpenAPI document under the base path", async () => {
    const { status, body } = await getJson(`${gw.baseUrl}/openapi.json`);
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    expect(body.info.version).toBe("1.0.0");
    expect(body.paths).toHaveProperty("/domains");
  });

  it("GET /capabilities and GET /routes list across domains, valid against the OpenAPI document (q: search-and-route-share-one-index)", async () => {
    const { status, body, headers } = await getJson(`${gw.baseUrl}/capabilities?status=live&limit=200`);
    expect(status).toBe(200);
    expect(body.map((c: any) => c.capabilityKey)).toEqual(expect.arrayContaining(["email.send", "enrichment.email.find"]));
    expect(body.every((c: any) => c.status === "live")).toBe(true);
    expect(Number(headers.get("x-total-count"))).toBe(body.length);
    expect(validate("get", "/capabilities", 200, body)).toEqual([]);
    const routes = await getJson(`${gw.baseUrl}/routes?provider=resend&status=live`);
    expect(routes.status).toBe(200);
    expect(routes.body.length).toBeGreaterThan(0);
    expect(validate("get", "/routes", 200, routes.body)).toEqual([]);
    const bad = await getJson(`${gw.baseUrl}/routes?networkKey=smoke-signal`);
    expect(bad.status).toBe(400);
    expect(validate("get", "/routes", 400, bad.body)).toEqual([]);
  });
});
