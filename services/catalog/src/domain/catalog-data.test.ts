// The shipped catalog (services/catalog/catalog): it loads, covers the spec's domains, and keeps
// the product rules (naming, status honesty, prices, contracts) that the loader cannot know.
import type { Capability, Route } from "@agentic/proto/catalog/v1";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "../source";

const catalog = loadCatalog(DEFAULT_CATALOG_DIR);
const domains = catalog.listDomains();
const capabilities: Capability[] = domains.flatMap((d) => catalog.listCapabilities(d.domainKey) ?? []);
const routes: Route[] = domains.flatMap((d) => catalog.listDomainRoutes(d.domainKey) ?? []);
const routesOf = (capabilityKey: string) => routes.filter((r) => r.capabilityKey === capabilityKey);
const capability = (capabilityKey: string) => capabilities.find((c) => c.capabilityKey === capabilityKey);

const SPEC_DOMAINS = [
  "email",
  "enrichment",
  "social",
  "web",
  "search",
  "text",
  "post",
  "broadcast",
  "finance",
  "geo",
  "document",
  "media",
  "models",
  "travel",
  "speech",
  "translation",
  "chain",
];
/**
 * Live means the executor runs it end to end; the table-driven system test (e2e) executes every live
 * route through the gateway against the provider sandbox, so here the statuses only have to agree with
 * each other. These were the first capabilities wired and must stay live.
 */
const FIRST_LIVE = [
  "email.send",
  "email.inbox.buy",
  "search.answer",
  "web.extract",
  "enrichment.people.search",
  "geo.time.current",
  "geo.time.convert",
  "broadcast.message.quote",
  "translation.text.translate",
  "models.chat.complete",
];
const LIVE = capabilities.filter((c) => c.status === "live").map((c) => c.capabilityKey);
const RECOMMEND_ONLY = capabilities.filter((c) => c.status === "recommend_only").map((c) => c.capabilityKey);

describe("the shipped catalog", () => {
  it("loads: all 17 spec domains in spec order, each with a real label and description", () => {
    expect(domains.map((d) => d.domainKey)).toEqual(SPEC_DOMAINS);
    for (const d of domains) {
      expect(d.label.length).toBeGreaterThan(1);
      expect(d.description.length).toBeGreaterThan(30);
    }
  });

  it("has at least 45 capabilities, including the ones agents expect", () => {
    expect(capabilities.length).toBeGreaterThanOrEqual(45);
    const expected = [
      "email.send",
      "email.inbox.buy",
      "post.letter.quote",
      "post.letter.send",
      "post.letter.status",
      "post.postcard.send",
      "broadcast.message.quote",
      "broadcast.message.send",
      "enrichment.people.search",
      "enrichment.people.enrich",
      "enrichment.company.search",
      "enrichment.company.enrich",
      "enrichment.email.find",
      "enrichment.email.verify",
      "social.profile.lookup",
      "web.fetch",
      "web.scrape",
      "web.extract",
      "web.crawl",
      "web.map",
      "web.screenshot",
      "search.web",
      "search.news",
      "search.answer",
      "search.research",
      "document.ocr",
      "text.analyze",
      "geo.time.current",
      "geo.time.convert",
      "geo.places.search",
      "models.chat.complete",
      "models.list",
      "media.image.generate",
      "translation.text.translate",
      "finance.quote",
      "finance.fx.rate",
      "travel.flights.search",
      "travel.hotels.search",
      "speech.synthesize",
      "speech.transcribe",
      "chain.balance",
      "chain.transaction.lookup",
    ];
    expect(capabilities.map((c) => c.capabilityKey)).toEqual(expect.arrayContaining(expected));
    for (const d of domains) expect(d.totalCapabilityCount).toBeGreaterThanOrEqual(1);
  });

  it("derives ids and keys from the dotted capability key", () => {
    for (const c of capabilities) {
      expect(c.capabilityKey.startsWith(`${c.domainKey}.`)).toBe(true);
      expect(c.capabilityId).toBe(
        c.capabilityKey
          .slice(c.domainKey.length + 1)
          .split(".")
          .join("-"),
      );
    }
    expect(capability("geo.time.current")?.capabilityId).toBe("time-current");
    expect(capability("email.inbox.buy")?.capabilityId).toBe("inbox-buy");
  });

  it("never names a domain or capability after a provider", () => {
    const providers = new Set(catalog.summary().providers);
    for (const c of capabilities) {
      for (const part of c.capabilityKey.split(".")) expect(providers.has(part)).toBe(false);
    }
  });

  it("gives every route key the <capabilityKey>.<provider>[.<network>] form", () => {
    for (const r of routes) {
      const expected =
        r.networkKey === "direct" ? `${r.capabilityKey}.${r.providerKey}` : `${r.capabilityKey}.${r.providerKey}.${r.networkKey}`;
      expect(r.routeKey).toBe(expected);
      expect(r.routeKey).toMatch(/^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)+$/);
    }
    expect(new Set(routes.map((r) => r.routeKey)).size).toBe(routes.length);
    expect(routes.map((r) => r.routeKey)).toEqual(
      expect.arrayContaining(["email.send.resend", "search.answer.exa.mpp", "enrichment.people.search.apollo.agentcash"]),
    );
  });

  it("prices every route in whole credits with a source note", () => {
    for (const r of routes) {
      expect(Number.isInteger(r.startingCostCredits)).toBe(true);
      expect(r.startingCostCredits).toBeGreaterThanOrEqual(1);
      expect(r.priceSource).toMatch(/credit/);
      expect(r.summary.length).toBeGreaterThan(5);
      expect(r.priors?.successRate).toBeGreaterThan(0);
    }
  });

  it("uses all three networks and all three route modes", () => {
    expect(new Set(routes.map((r) => r.networkKey))).toEqual(new Set(["direct", "agentcash", "mpp"]));
    expect(new Set(routes.map((r) => r.routeMode))).toEqual(new Set(["managed", "byo", "redirect"]));
  });
});

describe("status honesty (live only where the executor runs it)", () => {
  it("marks a capability live when a route of it is live, recommend_only when every route is gated, else planned", () => {
    for (const key of FIRST_LIVE) expect([key, capability(key)?.status]).toEqual([key, "live"]);
    for (const c of capabilities) {
      const own = routesOf(c.capabilityKey);
      const expected = own.some((r) => r.status === "live") ? "live" : own.every((r) => r.executionGated) ? "recommend_only" : "planned";
      expect([c.capabilityKey, c.status]).toEqual([c.capabilityKey, expected]);
    }
  });

  it("has live routes only on live capabilities, over all three rails", () => {
    for (const r of routes.filter((r) => r.status === "live"))
      expect([r.routeKey, LIVE.includes(r.capabilityKey)]).toEqual([r.routeKey, true]);
    expect(new Set(routes.filter((r) => r.status === "live").map((r) => r.networkKey))).toEqual(new Set(["direct", "agentcash", "mpp"]));
  });

  it("derives live domains, enabled providers and products from the live routes", () => {
    const liveDomains = new Set(LIVE.map((k) => k.split(".")[0]));
    for (const d of domains) {
      expect([d.domainKey, d.status]).toEqual([d.domainKey, liveDomains.has(d.domainKey) ? "live" : "pending"]);
      const liveRoutes = routes.filter((r) => r.domainKey === d.domainKey && r.status === "live");
      expect(d.startingPriceCredits).toBe(liveRoutes.length ? Math.min(...liveRoutes.map((r) => r.startingCostCredits)) : undefined);
    }
    expect([...catalog.summary().enabledProviders].sort()).toEqual(
      [...new Set(routes.filter((r) => r.status === "live").map((r) => r.providerKey))].sort(),
    );
    expect(
      catalog
        .summary()
        .products.map((p) => p.productKey)
        .sort(),
    ).toEqual(
      capabilities
        .filter((c) => LIVE.includes(c.capabilityKey))
        .map((c) => `${c.domainKey}.${c.capabilityId}`)
        .sort(),
    );
  });

  it("shows each capability's cheapest live route (else its cheapest route) as its starting price", () => {
    for (const c of capabilities) {
      const own = routesOf(c.capabilityKey);
      const live = own.filter((r) => r.status === "live");
      expect(c.startingPriceCredits).toBe(Math.min(...(live.length ? live : own).map((r) => r.startingCostCredits)));
    }
  });

  it("gates execution of the recommend_only capabilities on every route", () => {
    for (const key of RECOMMEND_ONLY) expect(routesOf(key).every((r) => r.executionGated)).toBe(true);
    expect(routes.filter((r) => r.executionGated).every((r) => RECOMMEND_ONLY.includes(r.capabilityKey))).toBe(true);
  });

  it("maps mpp routes for the geo time capabilities", () => {
    expect(routesOf("geo.time.current").some((r) => r.networkKey === "mpp")).toBe(true);
    expect(routesOf("geo.time.convert").some((r) => r.networkKey === "mpp")).toBe(true);
  });
});

describe("email.send routes", () => {
  const send = routesOf("email.send");

  it("has resend 10, sendgrid 12 and postmark 14 as managed direct routes", () => {
    const managedDirect = send.filter((r) => r.routeMode === "managed" && r.networkKey === "direct");
    expect(managedDirect.map((r) => [r.providerKey, r.startingCostCredits])).toEqual([
      ["resend", 10],
      ["sendgrid", 12],
      ["postmark", 14],
    ]);
  });

  it("offers tracking on sendgrid and postmark but not resend", () => {
    const tracking = (provider: string) => send.find((r) => r.providerKey === provider)?.supportedFeatures.includes("tracking");
    expect([tracking("resend"), tracking("sendgrid"), tracking("postmark")]).toEqual([false, true, true]);
  });

  it("has a byo route over agentmail.mpp for owned inboxes", () => {
    expect(send.find((r) => r.routeKey === "email.send.agentmail.mpp")).toMatchObject({
      routeMode: "byo",
      managedByAgenticApi: false,
      settlementRail: "mpp",
    });
  });
});

describe("contracts", () => {
  const FULL = [...LIVE, ...RECOMMEND_ONLY];

  it("gives every capability a contract; full ones are available, the rest partial", () => {
    for (const c of capabilities) {
      const contract = catalog.getContract(c.domainKey, c.capabilityId);
      expect(contract?.contractStatus).toBe(c.contractStatus);
      expect([c.capabilityKey, c.contractStatus]).toEqual([c.capabilityKey, FULL.includes(c.capabilityKey) ? "available" : "partial"]);
    }
  });

  it("describes the full contracts completely, with a GenericExecutionResponse example", () => {
    for (const key of FULL) {
      const c = capability(key);
      const contract = c && catalog.getContract(c.domainKey, c.capabilityId);
      for (const op of [contract?.recommend, contract?.execute]) {
        expect(op).toMatchObject({ status: "available", dtoName: expect.stringMatching(/^(Recommend|Execute)[A-Za-z]+Dto$/) });
        expect(op?.requestExample).toBeDefined();
      }
      expect(contract?.execute?.responseExample).toMatchObject({
        success: true,
        status: expect.any(String),
        provider: expect.any(String),
        routeKey: expect.stringMatching(new RegExp(`^${key.replace(/\./g, "\\.")}\\.`)),
        creditsCharged: expect.any(Number),
        data: expect.any(Object),
      });
    }
  });

  it("puts agentName and optimizationPreferences in every recommend, and the routing controls in every execute", () => {
    for (const c of capabilities) {
      const contract = catalog.getContract(c.domainKey, c.capabilityId);
      expect(contract?.recommend?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(["agentName", "optimizationPreferences"]));
      expect(contract?.execute?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(["provider", "routeKey", "allowFallback"]));
    }
  });

  it("describes email.send as the hosted product does", () => {
    const contract = catalog.getContract("email", "send");
    expect(contract?.recommend?.dtoName).toBe("RecommendEmailSendDto");
    expect(contract?.execute?.dtoName).toBe("ExecuteEmailSendDto");
    expect(contract?.recommend?.fields.find((f) => f.name === "optimizationPreferences")).toMatchObject({
      type: "array",
      itemsType: "string",
      enumValues: ["cost", "reliability", "speed", "quality"],
    });
    expect(contract?.recommend?.fields.map((f) => f.name)).toContain("tracking");
    expect(contract?.execute?.requiredFields).toEqual(["to", "subject"]);
    expect(contract?.execute?.fields.map((f) => f.name)).toEqual(
      expect.arrayContaining(["to", "subject", "html", "text", "from", "replyTo", "cc", "bcc", "provider", "routeKey", "allowFallback"]),
    );
    expect(contract?.execute?.oneOfRequired).toEqual([{ fields: ["html", "text"] }]);
    expect(contract?.execute?.responseExample).toMatchObject({
      status: "sent",
      routeKey: "email.send.resend",
      creditsCharged: 10,
      providerMessageId: expect.any(String),
    });
  });

  it("asks geo.time.current for a location or a time zone", () => {
    const execute = catalog.getContract("geo", "time-current")?.execute;
    expect(execute?.oneOfRequired).toEqual([{ fields: ["location", "timezone"] }]);
    expect(execute?.fields.find((f) => f.name === "timezone")?.format).toBe("iana-timezone");
  });
});

describe("model routes", () => {
  const chat = routesOf("models.chat.complete");
  const route = (routeKey: string) => chat.find((r) => r.routeKey === routeKey);

  it("bill the OpenAI route on our key per token, at each model's list price + 25%", () => {
    const openai = route("models.chat.complete.openai");
    expect(openai?.billing).toBe("per_token");
    expect(
      openai?.models.map((m) => [m.model, m.inputCreditsPerMillionTokens, m.outputCreditsPerMillionTokens, m.maxOutputTokens]),
    ).toEqual([
      ["gpt-4o-mini", 187.5, 750, 16384],
      ["gpt-4o", 3125, 12500, 16384],
      ["gpt-4.1-mini", 500, 2000, 32768],
      ["gpt-4.1", 2500, 10000, 32768],
    ]);
    for (const m of openai?.models ?? []) {
      expect(m.inputCreditsPerMillionTokens).toBe(m.vendorInputUsdPerMillionTokens * 1250);
      expect(m.outputCreditsPerMillionTokens).toBe(m.vendorOutputUsdPerMillionTokens * 1250);
      expect(m.priceSource).toMatch(/^openai\.com\/api\/pricing: /);
    }
  });

  it("charge the DeepSeek MPP route per call: the rail never pays more than its price, whatever the model", () => {
    const deepseek = route("models.chat.complete.deepseek.mpp");
    expect(deepseek?.billing).toBe("per_call");
    expect(deepseek?.models.map((m) => m.model)).toEqual(["deepseek-chat", "deepseek-reasoner"]);
    expect(deepseek?.models.find((m) => m.model === "deepseek-reasoner")?.maxReasoningTokens).toBe(32768);
    for (const m of deepseek?.models ?? []) expect(m.priceSource).toMatch(/^api-docs\.deepseek\.com\//);
  });

  it("are the only routes that list models, and no model is served by two live routes yet", () => {
    expect(routes.filter((r) => r.models.length > 0).every((r) => r.capabilityKey === "models.chat.complete")).toBe(true);
    expect(routes.filter((r) => r.billing === "per_token").map((r) => r.routeKey)).toEqual(["models.chat.complete.openai"]);
    const served = chat.filter((r) => r.status === "live").flatMap((r) => r.models.map((m) => m.model));
    expect(new Set(served).size).toBe(served.length);
  });
});

describe("intent routing data", () => {
  it("gives every live and recommend-only capability example tasks and synonyms", () => {
    const routable = capabilities.filter((c) => c.status === "live" || c.status === "recommend_only");
    expect(routable.length).toBeGreaterThanOrEqual(45);
    for (const c of routable) {
      expect([c.capabilityKey, c.exampleTasks.length >= 3, c.synonyms.length >= 3]).toEqual([c.capabilityKey, true, true]);
    }
  });

  it("turns intent routing on, with its endpoint, exactly on domains with a live or recommend-only capability", () => {
    for (const d of domains) {
      const routable = (catalog.listCapabilities(d.domainKey) ?? []).some((c) => c.status === "live" || c.status === "recommend_only");
      expect([d.domainKey, d.supportsIntentRouting, d.routeEndpoint]).toEqual([
        d.domainKey,
        routable,
        routable ? `/api/agentic-api/domains/${d.domainKey}/route` : undefined,
      ]);
    }
  });
});
