// Scenario: execute runs a ranked plan and says how it walked it. optimizationPreferences reach the
// router's ranking; recommendationId runs the very ranking recommend answered; maxPriceCredits keeps
// every dearer route untried, fallbacks included; and every answer explains itself (decision, the
// Agentic-Route-Decision header, the usage item, a replay). Real services, sandbox vendors, real HTTP.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, expectBalanceEqualsJournal, newUser, settled, usage, type TestUser } from "./execute-helpers";

describe("execute runs a ranked plan and explains it", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 200);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  /** POST …/recommend as `user`. */
  async function recommend(body: Record<string, unknown>): Promise<any> {
    const res = await sys.authed("/domains/email/capabilities/send/recommend", {
      key: user.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json();
  }

  // First in the file: the routes' latency priors decide speed before any outcome of this system is learned.
  it("ranks by the optimizationPreferences it is sent: cost and speed choose different routes", async () => {
    const cheapest = await execute(sys, user, "email", "send", emailBody({ optimizationPreferences: ["cost"] }));
    const fastest = await execute(sys, user, "email", "send", emailBody({ optimizationPreferences: ["speed"] }));
    expect([cheapest.status, fastest.status]).toEqual([200, 200]);
    expect(cheapest.body).toMatchObject({ routeKey: "email.send.resend", creditsCharged: 10 });
    expect(fastest.body).toMatchObject({ routeKey: "email.send.postmark", creditsCharged: 14 });
    expect(sys.sandbox.control.calls().map((c) => c.provider)).toEqual(["resend", "postmark"]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(200 - 10 - 14);
  });

  it("refuses bad plan controls with a 400 naming the field, before anything is held or called", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ optimizationPreferences: ["cheap"] }, "optimizationPreferences[0]"],
      [{ optimizationPreferences: ["cost", "cost"] }, "optimizationPreferences[1]"],
      [{ maxPriceCredits: 0 }, "maxPriceCredits"],
      [{ maxPriceCredits: "12" }, "maxPriceCredits"],
      [{ recommendationId: "" }, "recommendationId"],
      [{ recommendationId: "rec_1", optimizationPreferences: ["cost"] }, "optimizationPreferences"],
    ];
    for (const [controls, field] of cases) {
      const res = await execute(sys, user, "email", "send", emailBody(controls));
      expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"]);
      expect(res.body.error).toContain(field);
      expect(res.body.hint.length).toBeGreaterThan(0);
    }
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await balance(sys, user)).toBe(200);
  });

  it("with a recommendationId pays the route recommend put first, and its candidates in order are the fallbacks", async () => {
    const rec = await recommend({ optimizationPreferences: ["speed"] });
    expect(rec.recommendationId).toEqual(expect.any(String));
    const order = rec.candidates.map((c: any) => c.routeKey);
    // Speed first: not the route a default ranking or a price order would pick.
    expect(order[0]).toBe("email.send.postmark");
    const res = await execute(sys, user, "email", "send", emailBody({ recommendationId: rec.recommendationId }));
    expect(res.status).toBe(200);
    expect(res.body.routeKey).toBe(order[0]);
    expect(res.body.creditsCharged).toBe(rec.candidates[0].priceCredits);
    // The rest of its ranking, in its order, never reached.
    expect(res.body.decision.notTried.filter((n: any) => n.reason === "not_reached").map((n: any) => n.routeKey)).toEqual(
      order.slice(1).filter((k: string) => k !== "email.send.agentmail.mpp"),
    );
  });

  it("with a recommendationId made under a maxPriceCredits never tries the routes it put above it", async () => {
    const capped = await recommend({ optimizationPreferences: ["speed"], maxPriceCredits: 12 });
    const res = await execute(sys, user, "email", "send", emailBody({ recommendationId: capped.recommendationId }));
    expect(res.status).toBe(200);
    expect(res.body.routeKey).not.toBe("email.send.postmark");
    expect(res.body.decision.notTried).toContainEqual(
      expect.objectContaining({ routeKey: "email.send.postmark", reason: "over_max_price" }),
    );
    const none = await recommend({ maxPriceCredits: 5 });
    const refused = await execute(sys, user, "email", "send", emailBody({ recommendationId: none.recommendationId }));
    expect([refused.status, refused.body.code]).toEqual([409, "PRICE_ABOVE_MAX"]);
    expect(refused.body.hint).toContain("at least 10");
    expect(sys.sandbox.control.calls().map((c) => c.provider)).not.toContain("postmark");
  });

  it("with an unknown recommendationId fails with the router's 404 and never re-ranks", async () => {
    const res = await execute(sys, user, "email", "send", emailBody({ recommendationId: "rec_00000000-0000-4000-8000-000000000000" }));
    expect([res.status, res.body.code]).toEqual([404, "RECOMMENDATION_NOT_FOUND"]);
    expect(sys.sandbox.control.calls()).toEqual([]);
  });

  it("with maxPriceCredits never walks a fallback to a dearer route, and says why in the decision", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx" });
    sys.sandbox.control.setFault({ provider: "sendgrid", mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend", allowFallback: true, maxPriceCredits: 12 }));
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    // postmark (14 credits) works, but is above the maximum: never called.
    expect(sys.sandbox.control.calls().map((c) => c.provider)).toEqual(["resend", "sendgrid"]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(200);
    const failed = (await usage(sys, user)).find((u) => u.routeKey === "email.send.sendgrid");
    expect(failed.decision.notTried).toContainEqual(expect.objectContaining({ routeKey: "email.send.postmark", reason: "over_max_price" }));
  });

  it("answers PRICE_ABOVE_MAX, naming the cheapest price in the hint, when no route is under maxPriceCredits", async () => {
    const res = await execute(sys, user, "email", "send", emailBody({ maxPriceCredits: 9 }));
    expect([res.status, res.body.code]).toEqual([409, "PRICE_ABOVE_MAX"]);
    expect(res.body.hint).toContain("PRICE_ABOVE_MAX");
    expect(res.body.hint).toContain("at least 10");
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await balance(sys, user)).toBe(200);
  });

  it("explains a fallback: the failed attempt with its outcome, the route that served, the routes not tried", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend", allowFallback: true }), {
      "Idempotency-Key": `decision-${user.userId}`,
    });
    expect(res.status).toBe(200);
    const { decision } = res.body;
    // The fallback is the router's next route (sendgrid or postmark, as route health stands): it served, the other was not reached.
    const [next, other] = sys.sandbox.control.calls()[1]?.provider === "sendgrid" ? ["sendgrid", "postmark"] : ["postmark", "sendgrid"];
    expect(decision.servedRouteKey).toBe(`email.send.${next}`);
    expect(res.body.routeKey).toBe(decision.servedRouteKey);
    expect(decision.attempts).toEqual([
      {
        routeKey: "email.send.resend",
        provider: "resend",
        outcome: "http_5xx",
        latencyMs: expect.any(Number),
        errorCode: "PROVIDER_ERROR",
      },
      { routeKey: `email.send.${next}`, provider: next, outcome: "ok", latencyMs: expect.any(Number) },
    ]);
    expect(decision.notTried).toContainEqual(expect.objectContaining({ routeKey: `email.send.${other}`, reason: "not_reached" }));
    expect(res.headers.get("agentic-route-decision")).toBe(`served=email.send.${next}; tried=2; skipped=${decision.notTried.length}`);

    // The usage item of the serving attempt carries the same decision.
    await settled(sys, user.userId);
    const served = (await usage(sys, user)).find((u) => u.routeKey === `email.send.${next}`);
    expect(served.decision).toEqual(decision);

    // A replay under the same key returns the same decision, and calls nobody.
    const replay = await execute(sys, user, "email", "send", emailBody({ provider: "resend", allowFallback: true }), {
      "Idempotency-Key": `decision-${user.userId}`,
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.decision).toEqual(decision);
    expect(replay.headers.get("agentic-route-decision")).toBe(res.headers.get("agentic-route-decision"));
    expect(sys.sandbox.control.calls().map((c) => c.provider)).toEqual(["resend", next]);
  });
});
