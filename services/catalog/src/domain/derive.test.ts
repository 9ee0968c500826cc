// Derived fields, checked on test/fixtures/valid: it has live routes, a cheaper pending route,
// a planned capability, and a recommend_only capability whose only live route is gated.
import { resolve } from "node:path";
import { loadCatalog } from "../source";

const catalog = loadCatalog(resolve(__dirname, "../../test/fixtures/valid"));

describe("derived domain fields", () => {
  it("derives paths, counts, status and starting price from the capabilities", () => {
    expect(catalog.getDomain("email")).toEqual({
      domainKey: "email",
      label: "Email",
      description: "Fixture email domain.",
      status: "live",
      capabilitiesPath: "/api/agentic-api/domains/email/capabilities",
      routesPath: "/api/agentic-api/domains/email/routes",
      // A domain with a live or recommend-only capability is found by intent routing.
      routeEndpoint: "/api/agentic-api/domains/email/route",
      supportsIntentRouting: true,
      liveCapabilityCount: 1,
      totalCapabilityCount: 2,
      startingPriceCredits: 10, // cheapest live route; the 3-credit route is pending
    });
  });

  it("is pending with no starting price when nothing in it can execute", () => {
    const geo = catalog.getDomain("geo");
    expect(geo?.status).toBe("pending");
    expect(geo?.liveCapabilityCount).toBe(0);
    expect(geo).not.toHaveProperty("startingPriceCredits"); // its only live route is execution-gated
  });

  it("lists domains in _catalog.yaml order", () => {
    expect(catalog.listDomains().map((d) => d.domainKey)).toEqual(["email", "geo"]);
  });
});

describe("derived capability fields", () => {
  it("derives keys, endpoints, providers, features, modes and the cheapest live price", () => {
    expect(catalog.getCapability("email", "send")).toEqual({
      capabilityKey: "email.send",
      capabilityId: "send",
      domainKey: "email",
      label: "Email Send",
      description: "Send one email.",
      status: "live",
      supportedProviders: ["agentmail", "resend", "sendgrid"],
      enabledProviders: ["resend", "sendgrid"],
      supportedFeatures: ["html", "owned_inbox", "text", "tracking"],
      availableRouteModes: ["managed", "byo"],
      startingPriceCredits: 10,
      recommendEndpoint: "/api/agentic-api/domains/email/capabilities/send/recommend",
      executeEndpoint: "/api/agentic-api/domains/email/capabilities/send/execute",
      routesEndpoint: "/api/agentic-api/domains/email/capabilities/send/routes",
      contractEndpoint: "/api/agentic-api/domains/email/capabilities/send/contract",
      contractStatus: "available",
      exampleTasks: ["tell Ana the invoice is attached", "mail the report to my boss", "send a welcome note to a new user"],
      synonyms: ["mail"],
    });
  });

  it("carries no intent data for a capability whose data has none", () => {
    const inbox = catalog.getCapability("email", "inbox-buy");
    expect(inbox?.exampleTasks).toEqual([]);
    expect(inbox?.synonyms).toEqual([]);
  });

  it("joins dotted parts with '-' for the id and falls back to the cheapest route when none is live", () => {
    const inbox = catalog.getCapability("email", "inbox-buy");
    expect(inbox?.capabilityKey).toBe("email.inbox.buy");
    expect(inbox?.startingPriceCredits).toBe(2500);
    expect(inbox?.enabledProviders).toEqual([]);
    expect(inbox?.contractStatus).toBe("unavailable");
  });

  it("does not count an execution-gated live route as enabled", () => {
    const time = catalog.getCapability("geo", "time-current");
    expect(time?.capabilityKey).toBe("geo.time.current");
    expect(time?.enabledProviders).toEqual([]);
    expect(time?.startingPriceCredits).toBe(1);
    expect(time?.availableRouteModes).toEqual(["managed", "redirect"]);
    expect(time?.contractStatus).toBe("partial");
  });
});

describe("derived route fields", () => {
  it("derives route keys, labels, managed flag and settlement rail", () => {
    const routes = catalog.listCapabilityRoutes("email", "send") ?? [];
    expect(routes.map((r) => [r.routeKey, r.providerLabel, r.managedByAgenticApi, r.settlementRail])).toEqual([
      ["email.send.resend", "Resend", true, "api_key"],
      ["email.send.sendgrid", "Twilio SendGrid", true, "api_key"],
      ["email.send.agentmail.mpp", "AgentMail", false, "mpp"],
    ]);
    expect(routes[0]).toMatchObject({
      domainKey: "email",
      capabilityKey: "email.send",
      capabilityId: "send",
      networkKey: "direct",
      routeMode: "managed",
      startingCostCredits: 10,
      status: "live",
      executionGated: false,
      priors: { successRate: 0.99, latencyMs: 400, quality: 0.9 },
      priceSource: "fixture: resend list price + margin",
    });
  });

  it("lists every route of a domain in capability order", () => {
    expect(catalog.listDomainRoutes("email")?.map((r) => r.routeKey)).toEqual([
      "email.send.resend",
      "email.send.sendgrid",
      "email.send.agentmail.mpp",
      "email.inbox.buy.agentmail.mpp",
    ]);
  });
});

describe("derived contract", () => {
  const contract = catalog.getContract("email", "send");

  it("adds the common recommend fields first and the routing controls last", () => {
    expect(contract?.recommend?.fields.map((f) => f.name)).toEqual(["agentName", "optimizationPreferences"]);
    expect(contract?.execute?.fields.map((f) => f.name)).toEqual([
      "to",
      "subject",
      "html",
      "text",
      "provider",
      "routeKey",
      "allowFallback",
    ]);
  });

  it("derives required, optional and conditionally required lists from the fields", () => {
    expect(contract?.execute).toMatchObject({
      requiredFields: ["to", "subject"],
      optionalFields: ["html", "text", "provider", "routeKey", "allowFallback"],
      conditionallyRequiredFields: ["html", "text"],
      oneOfRequired: [{ fields: ["html", "text"] }],
    });
    const html = contract?.execute?.fields.find((f) => f.name === "html");
    expect(html).toMatchObject({ required: false, conditionallyRequired: true });
    expect(contract?.execute?.fields.find((f) => f.name === "to")).toMatchObject({ required: true, format: "email" });
  });

  it("carries the ids, the shared notes and the operation status", () => {
    expect(contract).toMatchObject({ domainKey: "email", capabilityKey: "email.send", capabilityId: "send", contractStatus: "available" });
    expect(contract?.notes[0]).toMatch(/canonical list of request fields/);
  });
});

describe("summary", () => {
  it("lists all providers, providers with an executable live route, and live products", () => {
    expect(catalog.summary()).toEqual({
      providers: ["agentmail", "googlemaps", "resend", "sendgrid", "timeapi"],
      enabledProviders: ["resend", "sendgrid"],
      products: [{ productKey: "email.send", startingPriceCredits: 10 }],
    });
  });
});

describe("basePath option", () => {
  it("prefixes every derived path", () => {
    const custom = loadCatalog(resolve(__dirname, "../../test/fixtures/valid"), { basePath: "/v2/" });
    expect(custom.getDomain("email")?.capabilitiesPath).toBe("/v2/domains/email/capabilities");
    expect(custom.getCapability("email", "send")?.contractEndpoint).toBe("/v2/domains/email/capabilities/send/contract");
  });

  it("rejects a base path that is not server-relative", () => {
    expect(() => loadCatalog(resolve(__dirname, "../../test/fixtures/valid"), { basePath: "api" })).toThrow(TypeError);
  });
});
