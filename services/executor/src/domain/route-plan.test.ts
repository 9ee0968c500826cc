import { Capability, Route } from "@agentic/proto/catalog/v1";
import { RecommendationCandidate } from "@agentic/proto/router/v1";
import type { AppError } from "@agentic/platform";
import {
  capabilityRefusal,
  defaultAllowFallback,
  needsRanking,
  planRoutes,
  routesForModel,
  type PlanInput,
  type RouteReadiness,
} from "./route-plan";

const capability = Capability.fromPartial({ capabilityKey: "email.send", capabilityId: "send", domainKey: "email", status: "live" });
const route = (providerKey: string, price: number, extra: Partial<Route> = {}) =>
  Route.fromPartial({
    routeKey: `email.send.${providerKey}${extra.networkKey && extra.networkKey !== "direct" ? `.${extra.networkKey}` : ""}`,
    providerKey,
    networkKey: "direct",
    routeMode: "managed",
    status: "live",
    readiness: { executable: true, blockedBy: "", reason: "" },
    startingCostCredits: price,
    ...extra,
  });
const resend = route("resend", 10);
const sendgrid = route("sendgrid", 12);
const postmark = route("postmark", 14);
const agentmail = route("agentmail", 3, {
  networkKey: "mpp",
  routeMode: "byo",
  status: "pending",
  readiness: { executable: false, blockedBy: "ROUTE_PENDING", reason: "the route is pending" },
});
const routes = [resend, sendgrid, postmark, agentmail];
// As the planner reads the catalog's readiness (rails and adapters all configured here).
const ready = ({ readiness }: Route): RouteReadiness =>
  readiness?.executable
    ? { ready: true }
    : { ready: false, kind: "gated", blocking: readiness?.blockedBy ?? "ROUTE_PENDING", reason: readiness?.reason ?? "" };
const candidate = (r: Route, blockingRequirements: string[] = []) =>
  RecommendationCandidate.fromPartial({ routeKey: r.routeKey, provider: r.providerKey, blockingRequirements });

const plan = (over: Partial<PlanInput>) =>
  planRoutes({ capability, routes, controls: {}, readiness: ready, contractPath: "/domains/email/capabilities/send/contract", ...over });
const failure = (over: Partial<PlanInput>) => {
  try {
    plan(over);
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected planRoutes to throw");
};
const keys = (rs: Route[]) => rs.map((r) => r.routeKey);

describe("planRoutes", () => {
  it("takes the router's best executable route, then the next executable ones as fallbacks", () => {
    const ranking = [
      candidate(agentmail, ["ROUTE_PENDING"]),
      candidate(sendgrid),
      candidate(resend),
      candidate(postmark, ["ROUTE_UNHEALTHY"]),
    ];
    const p = plan({ ranking });
    expect(keys(p.routes)).toEqual(["email.send.sendgrid", "email.send.resend"]);
    expect(p).toMatchObject({ allowFallback: true, routes: [sendgrid, resend] });
  });

  it("keeps routes the router blocks only for credits: the ledger's hold decides", () => {
    expect(keys(plan({ ranking: [candidate(resend, ["CREDITS_REQUIRED"]), candidate(sendgrid, ["CREDITS_REQUIRED"])] }).routes)).toEqual([
      "email.send.resend",
      "email.send.sendgrid",
      "email.send.postmark",
    ]);
  });

  it("ranks by price when the router could not answer", () => {
    expect(keys(plan({}).routes)).toEqual(["email.send.resend", "email.send.sendgrid", "email.send.postmark"]);
  });

  it("runs a pinned route alone unless allowFallback is sent", () => {
    expect(keys(plan({ controls: { routeKey: "email.send.postmark" } }).routes)).toEqual(["email.send.postmark"]);
    expect(keys(plan({ controls: { provider: "sendgrid" } }).routes)).toEqual(["email.send.sendgrid"]);
    expect(keys(plan({ controls: { provider: "sendgrid", allowFallback: true } }).routes)).toEqual([
      "email.send.sendgrid",
      "email.send.resend",
      "email.send.postmark",
    ]);
    expect(plan({ controls: { routeKey: "email.send.postmark" } })).toMatchObject({ allowFallback: false, routes: [postmark] });
  });

  it("lets allowFallback: false hold without a pin", () => {
    expect(keys(plan({ controls: { allowFallback: false } }).routes)).toEqual(["email.send.resend"]);
  });

  it("refuses pins naming nothing of the capability, listing what exists", () => {
    expect(failure({ controls: { provider: "mailgun" } })).toMatchObject({
      code: "UNKNOWN_PROVIDER",
      hint: expect.stringContaining("resend, sendgrid, postmark, agentmail"),
    });
    expect(failure({ controls: { routeKey: "email.send.mailgun" } })).toMatchObject({
      code: "UNKNOWN_ROUTE",
      hint: expect.stringContaining("email.send.resend"),
    });
    expect(failure({ controls: { routeKey: "email.send.resend", provider: "sendgrid" } })).toMatchObject({
      code: "INVALID_INPUT",
      details: { field: "provider" },
    });
  });

  it("gates a capability that is not live, and a pinned route that cannot run", () => {
    expect(capabilityRefusal({ ...capability, status: "recommend_only" })).toMatchObject({
      code: "CAPABILITY_GATED",
      message: expect.stringContaining("recommend-only"),
    });
    expect(capabilityRefusal(capability)).toBeUndefined();
    expect(failure({ controls: { provider: "agentmail" } })).toMatchObject({
      code: "CAPABILITY_GATED",
      details: { blockingRequirements: ["ROUTE_PENDING"] },
    });
    const unavailable = (r: Route): RouteReadiness =>
      r === resend ? { ready: false, kind: "unavailable", reason: "no direct rail is configured" } : ready(r);
    expect(failure({ controls: { provider: "resend" }, readiness: unavailable })).toMatchObject({ code: "ROUTE_UNAVAILABLE" });
  });

  it("says why nothing can run when no route is executable", () => {
    expect(failure({ routes: [agentmail] })).toMatchObject({
      code: "CAPABILITY_GATED",
      details: { blockingRequirements: ["ROUTE_PENDING"] },
    });
    expect(failure({ routes: [resend], ranking: [candidate(resend, ["ROUTE_UNHEALTHY"])] })).toMatchObject({
      code: "ROUTE_UNAVAILABLE",
      message: expect.stringContaining("ROUTE_UNHEALTHY"),
    });
  });
});

describe("fallback defaults", () => {
  it("defaults to true without a pin and false with one; an explicit value wins", () => {
    expect(defaultAllowFallback({})).toBe(true);
    expect(defaultAllowFallback({ provider: "resend" })).toBe(false);
    expect(defaultAllowFallback({ routeKey: "email.send.resend", allowFallback: true })).toBe(true);
  });

  it("asks the router only when its ranking can matter", () => {
    expect(needsRanking(routes, {})).toBe(true);
    expect(needsRanking(routes, { routeKey: "email.send.resend" })).toBe(false);
    expect(needsRanking(routes, { provider: "resend" })).toBe(false);
    expect(needsRanking(routes, { provider: "resend", allowFallback: true })).toBe(true);
    expect(needsRanking([...routes, route("resend", 3, { networkKey: "mpp" })], { provider: "resend" })).toBe(true);
  });
});

describe("routesForModel", () => {
  const chat = Capability.fromPartial({
    capabilityKey: "models.chat.complete",
    capabilityId: "chat-complete",
    domainKey: "models",
    status: "live",
  });
  const served = (...models: string[]) => models.map((model) => ({ model }));
  const openai = Route.fromPartial({
    routeKey: "models.chat.complete.openai",
    providerKey: "openai",
    models: served("gpt-4o-mini", "gpt-4o"),
  });
  const deepseek = Route.fromPartial({
    routeKey: "models.chat.complete.deepseek.mpp",
    providerKey: "deepseek",
    models: served("deepseek-chat", "deepseek-reasoner"),
  });
  const unlisted = Route.fromPartial({ routeKey: "models.chat.complete.groq.mpp", providerKey: "groq" });
  const chatRoutes = [openai, deepseek, unlisted];
  const refusal = (model: string, controls = {}) => {
    try {
      routesForModel(chat, chatRoutes, model, controls);
    } catch (err) {
      return err as AppError;
    }
    throw new Error("expected a refusal");
  };

  it("keeps only the routes serving the model; a route listing no models serves none", () => {
    expect(routesForModel(chat, chatRoutes, "deepseek-chat", {})).toEqual([deepseek]);
    expect(routesForModel(chat, chatRoutes, "gpt-4o", { provider: "openai" })).toEqual([openai]);
  });

  it("refuses a model no route serves, naming the models that are served", () => {
    expect(refusal("gpt-5-ultra")).toMatchObject({
      code: "INVALID_INPUT",
      message:
        'model: no route of models.chat.complete serves "gpt-5-ultra"; served: deepseek-chat, deepseek-reasoner, gpt-4o, gpt-4o-mini. Nothing was charged.',
      details: { field: "model", servedModels: ["deepseek-chat", "deepseek-reasoner", "gpt-4o", "gpt-4o-mini"] },
    });
  });

  it("refuses a pinned route or provider that does not serve the model, naming what it serves", () => {
    expect(refusal("deepseek-chat", { routeKey: "models.chat.complete.openai" })).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining('route models.chat.complete.openai does not serve "deepseek-chat"; served: gpt-4o, gpt-4o-mini.'),
      details: { servedModels: ["gpt-4o", "gpt-4o-mini"] },
    });
    expect(refusal("deepseek-chat", { provider: "openai" })).toMatchObject({
      message: expect.stringContaining('provider openai does not serve "deepseek-chat"'),
    });
  });

  it("leaves an unknown pin to planRoutes, and capabilities without models alone", () => {
    expect(routesForModel(chat, chatRoutes, "deepseek-chat", { routeKey: "models.chat.complete.nope" })).toEqual([deepseek]);
    expect(routesForModel(capability, routes, "anything", {})).toEqual(routes);
    expect(routesForModel(chat, chatRoutes, undefined, {})).toEqual(chatRoutes);
  });
});

describe("planRoutes: the routes not planned, with why", () => {
  const reasons = (over: Partial<PlanInput>) => plan(over).notTried.map((n) => [n.routeKey, n.reason]);

  it("names the breaker, a missing feature and the catalog's gate, and leaves the price maximum to the executor's own quote", () => {
    const ranking = [
      candidate(sendgrid),
      candidate(resend, ["ROUTE_UNHEALTHY"]),
      candidate(postmark, ["FEATURE_UNSUPPORTED"]),
      candidate(agentmail, ["ROUTE_PENDING"]),
    ];
    expect(reasons({ ranking })).toEqual([
      ["email.send.resend", "breaker_open"],
      ["email.send.postmark", "missing_feature"],
      ["email.send.agentmail.mpp", "planned"],
    ]);
    // OVER_MAX_PRICE is the router's view from starting prices: the executor checks its own quote of the input instead.
    expect(keys(plan({ ranking: [candidate(resend), candidate(postmark, ["OVER_MAX_PRICE"])] }).routes)).toContain("email.send.postmark");
  });

  it("says a pin chose elsewhere, and that fallback is off when nothing is pinned", () => {
    // Without a ranking, cheapest first.
    expect(reasons({ controls: { routeKey: "email.send.sendgrid" } })).toEqual([
      ["email.send.agentmail.mpp", "planned"],
      ["email.send.resend", "pinned_elsewhere"],
      ["email.send.postmark", "pinned_elsewhere"],
    ]);
    expect(reasons({ controls: { allowFallback: false } })).toEqual([
      ["email.send.agentmail.mpp", "planned"],
      ["email.send.sendgrid", "fallback_off"],
      ["email.send.postmark", "fallback_off"],
    ]);
  });
});
