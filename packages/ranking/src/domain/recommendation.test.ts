import { ModelPrice, type Capability, type Route } from "@agentic/proto/catalog/v1";
import { capability, HEALTH, route, SCORING } from "../../test/routes";
import { ownedResourceRelationship } from "./acquisitions";
import type { Goal } from "./goals";
import { recommend, type RecommendationInput } from "./recommendation";
import { InputError } from "./request-input";
import { RouteHealthBook } from "./route-health";

const NOW = Date.parse("2026-11-22T10:00:00Z");

function run(routes: Route[], opts: Partial<RecommendationInput> & { goals?: Goal[]; book?: RouteHealthBook } = {}) {
  const book = opts.book ?? new RouteHealthBook(HEALTH);
  const routeKeys = [...routes, ...(opts.acquisition?.routes ?? [])].map((r) => r.routeKey);
  return recommend({
    capability: capability(),
    routes,
    catalogVersion: "v1",
    preferences: { goals: opts.goals ?? ["cost", "reliability"], source: "request" },
    fields: {},
    balanceCredits: 1_000,
    health: book.snapshot(routeKeys, NOW),
    settings: SCORING,
    ...opts,
  });
}

const cheapSlow = route("resend", { startingCostCredits: 10, priors: { successRate: 0.99, latencyMs: 900, quality: 0.7 } });
const pricyFast = route("sendgrid", { startingCostCredits: 14, priors: { successRate: 0.99, latencyMs: 150, quality: 0.9 } });

describe("recommend: scoring", () => {
  it("preference order changes the pick", () => {
    expect(run([cheapSlow, pricyFast], { goals: ["cost", "speed"] }).recommendedRouteKey).toBe("email.send.resend");
    expect(run([cheapSlow, pricyFast], { goals: ["speed", "cost"] }).recommendedRouteKey).toBe("email.send.sendgrid");
    expect(run([cheapSlow, pricyFast], { goals: ["quality"] }).recommendedRouteKey).toBe("email.send.sendgrid");
  });

  it("cost-first picks the cheapest route, and the cheapest executable one as bestExecutable", () => {
    const gatedCheapest = route("postmark", { startingCostCredits: 5, executionGated: true });
    const res = run([pricyFast, cheapSlow, gatedCheapest], { goals: ["cost"] });
    expect(res.candidates.map((c) => c.routeKey)).toEqual(["email.send.postmark", "email.send.resend", "email.send.sendgrid"]);
    expect(res).toMatchObject({
      recommendedRouteKey: "email.send.postmark",
      canExecuteNow: false,
      blockingRequirements: ["CAPABILITY_GATED"],
    });
    expect(res).toMatchObject({
      bestExecutableRouteKey: "email.send.resend",
      bestExecutableProvider: "resend",
      bestExecutableRouteMode: "managed",
    });
    expect(res.nextActions.at(-1)).toContain('"provider": "resend"');
    expect(run([pricyFast, cheapSlow], { goals: ["cost"] })).toMatchObject({
      recommendedRouteKey: "email.send.resend",
      canExecuteNow: true,
      blockingRequirements: [],
      nextActions: [],
    });
  });

  it("asking for tracking excludes routes without it, which stay listed with a reason", () => {
    const tracked = route("sendgrid", { startingCostCredits: 14, supportedFeatures: ["tracking"] });
    const res = run([cheapSlow, tracked], { goals: ["cost"], fields: { tracking: true } });
    expect(res.recommendedRouteKey).toBe("email.send.sendgrid");
    const resend = res.candidates.find((c) => c.routeKey === "email.send.resend")!;
    expect(resend).toMatchObject({
      score: 0,
      canExecuteNow: false,
      blockingRequirements: ["FEATURE_UNSUPPORTED"],
      trackingSupported: false,
    });
    expect(resend.reasons).toContain("does not support tracking, which was asked for");
    expect(res.candidates[0]!.reasons).toContain("supports tracking");
    expect(res.candidates[0]!.trackingSupported).toBe(true);
    // Without the ask, the cheaper route wins again.
    expect(run([cheapSlow, tracked], { goals: ["cost"], fields: { tracking: false } }).recommendedRouteKey).toBe("email.send.resend");
  });

  it("a route with an open breaker drops out of the pick", () => {
    const book = new RouteHealthBook(HEALTH);
    expect(run([cheapSlow, pricyFast], { goals: ["cost"], book }).recommendedRouteKey).toBe("email.send.resend");
    for (let i = 0; i < HEALTH.breakerFailures; i++) {
      book.record({ routeKey: "email.send.resend", ok: false, errorKind: "timeout", latencyMs: 5_000, observedAtMs: NOW - 1_000 });
    }
    const res = run([cheapSlow, pricyFast], { goals: ["cost"], book });
    expect(res.recommendedRouteKey).toBe("email.send.sendgrid");
    const dropped = res.candidates[1]!;
    expect(dropped).toMatchObject({ routeKey: "email.send.resend", score: 0, blockingRequirements: ["ROUTE_UNHEALTHY"] });
    expect(dropped.reasons.join("\n")).toContain("breaker open after 5 consecutive failures (last: timeout)");
  });

  it("a half-open breaker makes the route eligible again, for a trial call", () => {
    const book = new RouteHealthBook(HEALTH);
    for (let i = 0; i < HEALTH.breakerFailures; i++) {
      book.record({
        routeKey: "email.send.resend",
        ok: false,
        errorKind: "network",
        latencyMs: 0,
        observedAtMs: NOW - HEALTH.breakerCooldownMs - 1,
      });
    }
    const res = run([cheapSlow, pricyFast], { goals: ["cost"], book });
    expect(res).toMatchObject({ recommendedRouteKey: "email.send.resend", canExecuteNow: true });
    expect(res.candidates[0]!.reasons).toContain("recovering after 5 consecutive failures: the next call is a trial");
  });

  it("breaks ties deterministically by price, then route key", () => {
    const same = { priors: { successRate: 0.99, latencyMs: 400, quality: 0.8 } };
    const a = route("zeta", { ...same, startingCostCredits: 10 });
    const b = route("alpha", { ...same, startingCostCredits: 10 });
    // Equal on every goal but cost: cost weighs nothing when the prices are equal.
    for (const order of [
      [a, b],
      [b, a],
    ]) {
      expect(run(order).candidates.map((c) => c.routeKey)).toEqual(["email.send.alpha", "email.send.zeta"]);
    }
    // Scores equal to 4 decimals tie: float noise in a goal does not decide the order.
    const noisy = route("mid", { startingCostCredits: 10, priors: { successRate: 0.99, latencyMs: 400, quality: 0.80001 } });
    expect(run([noisy, a, b], { goals: ["quality"] }).candidates.map((c) => c.routeKey)).toEqual([
      "email.send.alpha",
      "email.send.mid",
      "email.send.zeta",
    ]);
    // Among tied scores the cheaper route comes first, whatever its key.
    const cheaper = route("zeta", { ...same, startingCostCredits: 10_000 });
    const dearer = route("alpha", { ...same, startingCostCredits: 10_001 });
    const tied = run([dearer, cheaper], { goals: ["quality"] }).candidates;
    expect(tied[0]!.score).toBe(tied[1]!.score);
    expect(tied.map((c) => c.routeKey)).toEqual(["email.send.zeta", "email.send.alpha"]);
  });

  it("keeps every score within [0, 1]", () => {
    const routes = [
      cheapSlow,
      pricyFast,
      route("x", { startingCostCredits: 1_000, priors: { successRate: 0.1, latencyMs: 60_000, quality: 0 } }),
    ];
    for (const goals of [["cost"], ["speed", "quality"], ["reliability", "cost", "speed", "quality"]] as Goal[][]) {
      for (const c of run(routes, { goals }).candidates) {
        expect(c.score).toBeGreaterThanOrEqual(0);
        expect(c.score).toBeLessThanOrEqual(1);
      }
    }
  });

  it("learned health beats the prior: a failing route loses on reliability", () => {
    const book = new RouteHealthBook(HEALTH);
    const a = route("alpha", { startingCostCredits: 10 });
    const b = route("beta", { startingCostCredits: 10 });
    for (let i = 0; i < 200; i++) {
      // Alternating failures never open the breaker, but halve the success rate.
      book.record({
        routeKey: "email.send.alpha",
        ok: i % 2 === 0,
        errorKind: i % 2 ? "http_5xx" : "",
        latencyMs: 300,
        observedAtMs: NOW - 10_000 + i,
      });
    }
    const res = run([a, b], { goals: ["reliability"], book });
    expect(res.recommendedRouteKey).toBe("email.send.beta");
    expect(res.candidates[1]!.reasons).toContain("50.0% success over the last 200 calls");
    expect(res.candidates[1]!.reasons).toContain("p50 300 ms over the last 50 successful calls");
  });
});

describe("recommend: explanations and blocks", () => {
  it("explains price, reliability, latency, quality and the score", () => {
    const res = run([cheapSlow, pricyFast], { goals: ["cost"] });
    const [best, other] = res.candidates;
    expect(best!.reasons[0]).toBe("cheapest live route: 10 credits");
    expect(best!.reasons).toContain("no live traffic yet: 99.0% success expected (catalog prior)");
    expect(best!.reasons).toContain("p50 900 ms expected (catalog prior)");
    expect(best!.reasons.at(-1)).toMatch(/^score 0\.\d{3} = 0\.87×cost 1\.00 \+ /);
    expect(other!.reasons[0]).toBe("14 credits, 4 more than the cheapest route");
    expect(res).toMatchObject({
      success: true,
      productKey: "email.send",
      preferenceSource: "request",
      optimizationPreferences: ["cost"],
      catalogVersion: "v1",
    });
  });

  it("gates every route of a recommend_only capability but still recommends one", () => {
    const res = run([route("alpha", { executionGated: true })], { capability: capability("text.analyze", { status: "recommend_only" }) });
    expect(res).toMatchObject({
      recommendedRouteKey: "email.send.alpha",
      canExecuteNow: false,
      blockingRequirements: ["CAPABILITY_GATED"],
    });
    expect(res.nextActions[0]).toContain("text.analyze is recommend-only");
    expect(res.bestExecutableRouteKey).toBeUndefined();
  });

  it("says how many credits are missing and how to fund them", () => {
    const res = run([route("alpha", { startingCostCredits: 10 }), route("free", { routeMode: "redirect", startingCostCredits: 0 })], {
      balanceCredits: 1,
      goals: ["reliability"],
    });
    const alpha = res.candidates.find((c) => c.routeKey === "email.send.alpha")!;
    expect(alpha.blockingRequirements).toEqual(["CREDITS_REQUIRED"]);
    expect(alpha.nextActions[0]).toBe(
      'Add 9 credits (balance 1, needed 10): POST /dev/init {"balanceCredits": 10} outside production, or top up the wallet',
    );
    const redirect = res.candidates.find((c) => c.routeKey === "email.send.free")!;
    expect(redirect.blockingRequirements).toEqual(["REDIRECT_NOT_BROKERED"]);
  });

  it("lists a pending route with ROUTE_PENDING", () => {
    expect(run([route("alpha", { status: "pending" })]).blockingRequirements).toEqual(["ROUTE_PENDING"]);
  });

  it("counts only a true boolean as a feature ask: a non-boolean under a feature's name is an execute field", () => {
    const plain = route("alpha", { startingCostCredits: 5, supportedFeatures: ["text"] });
    const rich = route("beta", { startingCostCredits: 9, supportedFeatures: ["html", "text"] });
    // A true ask still excludes the routes without the feature.
    const asked = run([plain, rich], { goals: ["cost"], fields: { html: true } });
    expect(asked.recommendedRouteKey).toBe("email.send.beta");
    expect(asked.candidates.find((c) => c.routeKey === "email.send.alpha")).toMatchObject({
      score: 0,
      blockingRequirements: ["FEATURE_UNSUPPORTED"],
    });
    // The html body of an email is not an ask: accepted, and nothing is excluded.
    const body = run([plain, rich], { goals: ["cost"], fields: { to: "a@b.co", subject: "hi", html: "<p>x</p>" } });
    expect(body.recommendedRouteKey).toBe("email.send.alpha");
    expect(body.candidates.every((c) => c.canExecuteNow && c.blockingRequirements.length === 0)).toBe(true);
    expect(run([plain, rich], { goals: ["cost"], fields: { tracking: "yes" } }).recommendedRouteKey).toBe("email.send.alpha");
  });

  it("rejects a resource field of the wrong type", () => {
    const acquisition = { relationship: ownedResourceRelationship("email.send")!, capability: capability("email.inbox.buy"), routes: [] };
    expect(() => run([route("alpha")], { acquisition, fields: { inboxId: 42 } })).toThrow(InputError);
  });
});

describe("recommend: workflows", () => {
  const inboxBuy: Capability = capability("email.inbox.buy");
  const buyRoute = route("agentmail", { networkKey: "mpp", settlementRail: "mpp", startingCostCredits: 2_000 }, "email.inbox.buy");
  const ownedInboxSend = route("agentmail", {
    networkKey: "mpp",
    settlementRail: "mpp",
    routeMode: "byo",
    managedByAgenticApi: false,
    startingCostCredits: 3,
  });
  const ownKey = route("mailgun", { routeMode: "byo", managedByAgenticApi: false, startingCostCredits: 2 });
  const acquisition = { relationship: ownedResourceRelationship("email.send")!, capability: inboxBuy, routes: [buyRoute] };

  it("builds the owned-inbox workflow with its costs, and a bring-your-own-key workflow for other byo routes", () => {
    const res = run([cheapSlow, ownedInboxSend, ownKey], { acquisition, balanceCredits: 5_000, goals: ["cost"] });
    const inbox = res.workflowRecommendations.find((w) => w.workflowType === "acquire_inbox_then_send")!;
    expect(inbox).toMatchObject({
      managedAfterAcquisition: true,
      acquisitionCapabilityKey: "email.inbox.buy",
      acquisitionRouteKey: "email.inbox.buy.agentmail.mpp",
      acquisitionProvider: "agentmail",
      acquisitionPriceCredits: 2_000,
      executeRouteKey: "email.send.agentmail.mpp",
      executeProvider: "agentmail",
      executePriceCredits: 3,
      estimatedFirstExecutionTotalCredits: 2_003,
      recurringExecutionCredits: 3,
      blockingRequirements: [],
    });
    const byo = res.workflowRecommendations.find((w) => w.workflowType === "bring_your_own_key")!;
    expect(byo).toMatchObject({ executeRouteKey: "email.send.mailgun", blockingRequirements: ["BYO_CREDENTIALS_REQUIRED"] });
    expect(res.bestWorkflowRecommendation).toEqual(inbox);

    // The owned-inbox send route is blocked until the body names an inbox.
    const send = res.candidates.find((c) => c.routeKey === "email.send.agentmail.mpp")!;
    expect(send.blockingRequirements).toEqual(["BYO_CREDENTIALS_REQUIRED"]);
    expect(send.nextActions[0]).toContain(
      'acquire one with email.inbox.buy (from 2000 credits, POST /domains/email/capabilities/inbox-buy/execute), then pass its id as "inboxId"',
    );
    const withInbox = run([cheapSlow, ownedInboxSend, ownKey], {
      acquisition,
      balanceCredits: 5_000,
      goals: ["cost"],
      fields: { inboxId: "inb_1" },
    });
    expect(withInbox.candidates.find((c) => c.routeKey === "email.send.agentmail.mpp")).toMatchObject({
      canExecuteNow: true,
      blockingRequirements: [],
    });
  });

  it("with an inbox named, recommends only routes that can send from it: the others would ignore it", () => {
    const res = run([cheapSlow, pricyFast, ownedInboxSend, ownKey], {
      acquisition,
      balanceCredits: 5_000,
      goals: ["cost"],
      fields: { inboxId: "inb_1" },
    });
    expect(res.recommendedRouteKey).toBe("email.send.agentmail.mpp");
    expect(res.bestExecutableRouteKey).toBe("email.send.agentmail.mpp");
    for (const key of [cheapSlow.routeKey, pricyFast.routeKey, ownKey.routeKey]) {
      const c = res.candidates.find((x) => x.routeKey === key)!;
      expect(c).toMatchObject({ score: 0, canExecuteNow: false, blockingRequirements: expect.arrayContaining(["RESOURCE_UNSUPPORTED"]) });
      expect(c.nextActions.join(" ")).toContain('execute a route of agentmail, or drop "inboxId"');
    }
    // Without an inbox named, nothing is blocked for it.
    const plain = run([cheapSlow, pricyFast], { acquisition, balanceCredits: 5_000 });
    expect(plain.candidates.flatMap((c) => c.blockingRequirements)).toEqual([]);
  });

  it("checks the wallet against the whole first run of a workflow", () => {
    const res = run([cheapSlow, ownedInboxSend], { acquisition, balanceCredits: 100 });
    const inbox = res.workflowRecommendations[0]!;
    expect(inbox.blockingRequirements).toEqual(["CREDITS_REQUIRED"]);
    expect(inbox.nextActions[0]).toContain("Add 1903 credits (balance 100, needed 2003)");
  });

  it("points at the workflow when the recommended route needs an owned inbox", () => {
    const res = run([ownedInboxSend, pricyFast], { acquisition, goals: ["cost"], balanceCredits: 5_000 });
    expect(res.recommendedRouteKey).toBe("email.send.agentmail.mpp");
    expect(res.nextActions.some((a) => a.startsWith("Or follow the acquire_inbox_then_send workflow"))).toBe(true);
    expect(res.bestExecutableRouteKey).toBe("email.send.sendgrid");
  });

  it("offers no workflow for a capability without byo routes", () => {
    const res = run([cheapSlow, pricyFast]);
    expect(res.workflowRecommendations).toEqual([]);
    expect(res.bestWorkflowRecommendation).toBeUndefined();
  });
});

describe("recommend: routing by model", () => {
  const chat = capability("models.chat.complete");
  const served = (...models: string[]) => models.map((model) => ModelPrice.fromPartial({ model }));
  const openai = route("openai", { startingCostCredits: 1, models: served("gpt-4o-mini", "gpt-4o") }, "models.chat.complete");
  const deepseek = route(
    "deepseek",
    { networkKey: "mpp", startingCostCredits: 2, models: served("deepseek-chat") },
    "models.chat.complete",
  );
  const unlisted = route("groq", { networkKey: "mpp", startingCostCredits: 1 }, "models.chat.complete");
  const chatRun = (fields: Record<string, unknown>) => run([openai, deepseek, unlisted], { capability: chat, goals: ["cost"], fields });

  it("lists only the routes serving the named model, even when another is cheaper", () => {
    const res = chatRun({ model: "deepseek-chat" });
    expect(res.candidates.map((c) => c.routeKey)).toEqual(["models.chat.complete.deepseek.mpp"]);
    expect(res).toMatchObject({
      recommendedRouteKey: "models.chat.complete.deepseek.mpp",
      bestExecutableRouteKey: "models.chat.complete.deepseek.mpp",
    });
    expect(res.candidates[0]!.score).toBeGreaterThan(0.9); // cost is relative to the serving routes only
  });

  it("refuses a model no route serves, naming the served models", () => {
    expect(() => chatRun({ model: "gpt-5-ultra" })).toThrow(
      new InputError(
        "model",
        'model: no route of models.chat.complete serves "gpt-5-ultra"; served: deepseek-chat, gpt-4o, gpt-4o-mini',
        "",
      ),
    );
  });

  it("considers every route when no model is named", () => {
    expect(
      chatRun({})
        .candidates.map((c) => c.routeKey)
        .sort(),
    ).toEqual(["models.chat.complete.deepseek.mpp", "models.chat.complete.groq.mpp", "models.chat.complete.openai"]);
  });
});

describe("recommend: vendor quotas", () => {
  const use = (usedTotal: number, usedByUser = 0) =>
    new Map([["email.send.resend", { requests: 100, perUserRequests: 10, usedTotal, usedByUser, resetAtMs: NOW + 60_000 }]]);

  it("keeps a route with room first, and says what is left", () => {
    const res = run([cheapSlow, pricyFast], { goals: ["cost"], quotaUse: use(79, 2) });
    expect(res.recommendedRouteKey).toBe("email.send.resend");
    expect(res.candidates[0]!.reasons).toContainEqual(expect.stringContaining("21 of 100 requests left for everyone, 8 of your 10"));
  });

  it("ranks a route running out below its alternatives while it can still run, the same for a ranking-only request", () => {
    for (const rankingOnly of [false, true]) {
      const res = run([cheapSlow, pricyFast], { goals: ["cost"], quotaUse: use(80), rankingOnly });
      expect(res.candidates.map((c) => [c.routeKey, c.canExecuteNow])).toEqual([
        ["email.send.sendgrid", true],
        ["email.send.resend", true],
      ]);
    }
  });

  it("blocks a route whose quota, or whose caller's share, is spent (VENDOR_QUOTA_EXHAUSTED, not disqualified)", () => {
    for (const [quota, words] of [
      [use(100, 3), "shared by every user"],
      [use(50, 10), "You have used your share"],
    ] as const) {
      const res = run([cheapSlow, pricyFast], { goals: ["cost"], quotaUse: quota });
      const blocked = res.candidates.find((c) => c.routeKey === "email.send.resend")!;
      expect(res.recommendedRouteKey).toBe("email.send.sendgrid");
      expect(blocked).toMatchObject({
        canExecuteNow: false,
        blockingRequirements: ["VENDOR_QUOTA_EXHAUSTED"],
        unavailableReasonCode: "vendor_quota_exhausted",
      });
      expect(blocked.score).toBeGreaterThan(0);
      expect(blocked.nextActions[0]).toContain(words);
    }
  });
});

describe("recommend: candidates past the caller's limit", () => {
  it("ranks them as the whole answer does, with their prices and blocks, but explains only the ones read", () => {
    const gated = route("postmark", { startingCostCredits: 5, executionGated: true });
    const routes = [pricyFast, cheapSlow, gated];
    const whole = run(routes, { goals: ["cost"] });
    const limited = run(routes, { goals: ["cost"], explainTop: 1 });
    const essentials = (r: typeof whole) =>
      r.candidates.map(({ routeKey, priceCredits, score, canExecuteNow, blockingRequirements }) => ({
        routeKey,
        priceCredits,
        score,
        canExecuteNow,
        blockingRequirements,
      }));
    expect(essentials(limited)).toEqual(essentials(whole));
    expect(limited.candidates[0]).toEqual(whole.candidates[0]);
    expect(limited.nextActions).toEqual(whole.nextActions);
    for (const past of limited.candidates.slice(1)) {
      expect(past).toMatchObject({ reasons: [], nextActions: [], supportedFeatures: [] });
    }
    expect(whole.candidates[1]!.reasons.length).toBeGreaterThan(0);
  });

  it("says the cheapest live route in its price reason, computed once for the whole field", () => {
    const res = run([pricyFast, cheapSlow], { goals: ["cost"] });
    expect(res.candidates.map((c) => c.reasons[0])).toEqual([
      "cheapest live route: 10 credits",
      "14 credits, 4 more than the cheapest route",
    ]);
  });
});
