// models.chat.complete through the gateway, real services and the provider sandbox: a request is
// routed only to routes that list its model. A model no route serves, or a pin to a route that does
// not serve it, is a 400 naming the served models, with nothing held and no vendor called; the
// sandbox's call log shows which vendor each request reached.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { execute, expectBalanceEqualsJournal, journalKinds, newUser, type TestUser } from "./execute-helpers";
import { validateResponse } from "./validate-response";

const OPENAI_MODELS = ["gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini"];
/** Every model a live route serves, sorted as the refusal names them. */
const SERVED = ["claude-3-5-haiku-20241022", "deepseek-chat", "deepseek-reasoner", ...OPENAI_MODELS, "llama-3.1-8b-instant"];
const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: "user", content: "Say hi" }], ...extra });

describe("models.chat.complete routes by model", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 1_000);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  const vendorCalls = () => ({
    openai: sys.sandbox.control.calls("openai").length,
    deepseek: sys.sandbox.control.calls("deepseek").length,
  });

  it("lists each route's models with their prices and how the route bills", async () => {
    const res = await fetch(`${sys.gw.baseUrl}/domains/models/capabilities/chat-complete/routes`);
    expect(res.status).toBe(200);
    const routes = (await res.json()) as any[];
    expect(validateResponse("get", "/domains/{domainKey}/capabilities/{capabilityId}/routes", 200, routes)).toEqual([]);
    const openai = routes.find((r) => r.routeKey === "models.chat.complete.openai");
    expect(openai).toMatchObject({ billing: "per_token", startingCostCredits: 1 });
    expect(openai.models).toEqual([
      { model: "gpt-4o-mini", inputCreditsPerMillionTokens: 187.5, outputCreditsPerMillionTokens: 750, maxOutputTokens: 16384 },
      { model: "gpt-4o", inputCreditsPerMillionTokens: 3125, outputCreditsPerMillionTokens: 12500, maxOutputTokens: 16384 },
      { model: "gpt-4.1-mini", inputCreditsPerMillionTokens: 500, outputCreditsPerMillionTokens: 2000, maxOutputTokens: 32768 },
      { model: "gpt-4.1", inputCreditsPerMillionTokens: 2500, outputCreditsPerMillionTokens: 10000, maxOutputTokens: 32768 },
    ]);
    expect(routes.find((r) => r.routeKey === "models.chat.complete.deepseek.mpp")).toMatchObject({
      billing: "per_call",
      models: [{ model: "deepseek-chat" }, { model: "deepseek-reasoner", maxReasoningTokens: 32768 }],
    });
    expect(routes.find((r) => r.routeKey === "models.chat.complete.groq.mpp")).toMatchObject({
      billing: "per_call",
      models: [{ model: "llama-3.1-8b-instant" }],
    });
    // A route that lists no models serves none and shows no models key.
    expect(routes.find((r) => r.routeKey === "models.chat.complete.openrouter")).not.toHaveProperty("models");
  });

  it("refuses a model no route serves, in execute and recommend, naming the served models: nothing held, no vendor called", async () => {
    const res = await execute(sys, user, "models", "chat-complete", chat("gpt-5-ultra", { max_tokens: 32768 }));
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.error).toBe(
      `model: no route of models.chat.complete serves "gpt-5-ultra"; served: ${SERVED.join(", ")}. Nothing was charged.`,
    );
    expect(res.body.hint).toContain("GET /domains/models/capabilities/chat-complete/routes");

    const rec = await sys.authed("/domains/models/capabilities/chat-complete/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-5-ultra" }),
    });
    const recBody = (await rec.json()) as { code: string; error: string };
    expect([rec.status, recBody.code]).toEqual([400, "INVALID_INPUT"]);
    expect(recBody.error).toContain(`served: ${SERVED.join(", ")}`);

    expect(vendorCalls()).toEqual({ openai: 0, deepseek: 0 });
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
  });

  it("sends deepseek-chat to DeepSeek and never to OpenAI, though OpenAI's route is cheaper", async () => {
    const rec = await sys.authed("/domains/models/capabilities/chat-complete/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "deepseek-chat", optimizationPreferences: ["cost"] }),
    });
    const recommendation = (await rec.json()) as { recommendedRouteKey: string; candidates: { routeKey: string }[] };
    expect(recommendation.candidates.map((c) => c.routeKey)).toEqual(["models.chat.complete.deepseek.mpp"]);

    const res = await execute(sys, user, "models", "chat-complete", chat("deepseek-chat"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: "deepseek",
      routeKey: "models.chat.complete.deepseek.mpp",
      creditsCharged: 2,
      data: { model: "deepseek-chat" },
    });
    const [call, ...more] = sys.sandbox.control.calls("deepseek").filter((c) => c.status === 200);
    expect(more).toEqual([]);
    expect(call?.body).toMatchObject({ model: "deepseek-chat" });
    expect(sys.sandbox.control.calls("openai")).toEqual([]);
  });

  it("refuses a pinned route or provider that does not serve the model, naming its models: nothing held, no vendor called", async () => {
    const pinnedRoute = await execute(
      sys,
      user,
      "models",
      "chat-complete",
      chat("deepseek-chat", { routeKey: "models.chat.complete.openai" }),
    );
    expect([pinnedRoute.status, pinnedRoute.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(pinnedRoute.body.error).toBe(
      `model: route models.chat.complete.openai does not serve "deepseek-chat"; served: ${OPENAI_MODELS.join(", ")}. Nothing was charged.`,
    );
    const pinnedProvider = await execute(sys, user, "models", "chat-complete", chat("gpt-4o-mini", { provider: "deepseek" }));
    expect([pinnedProvider.status, pinnedProvider.body.error]).toEqual([
      400,
      'model: provider deepseek does not serve "gpt-4o-mini"; served: deepseek-chat, deepseek-reasoner. Nothing was charged.',
    ]);
    expect(vendorCalls()).toEqual({ openai: 0, deepseek: 0 });
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
  });

  it("refuses max_tokens above the model's cap before anything is held", async () => {
    const res = await execute(sys, user, "models", "chat-complete", chat("gpt-4o-mini", { max_tokens: 16385 }));
    expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
    expect(res.body.error).toContain("max_tokens: gpt-4o-mini accepts at most 16384 output tokens (got 16385)");
    expect(vendorCalls()).toEqual({ openai: 0, deepseek: 0 });
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
  });
});
