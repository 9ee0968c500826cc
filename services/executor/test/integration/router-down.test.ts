// Without the router, execute ranks exactly as before: the ranking runs in the executor, from the state
// the router shares (outcomes, its KV buckets), so a router outage changes no execute; a recommendation
// the router stored before it went down still runs; pinned routes never needed a ranking at all.
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("execute while the router is down", () => {
  let sys: ExecutorSystem;
  let recommendationId = "";
  let recommended = "";
  beforeAll(async () => {
    sys = await startExecutorSystem();
    await sys.ledger.client.grantCredits({ grantId: "grant-router-down", userId: "router-down-user", amountCredits: 100, reason: "test" });
    const rec = await sys.router.client.recommend({
      userId: "router-down-user",
      domainKey: "email",
      capabilityId: "send",
      input: {},
      optimizationPreferences: ["quality"],
    });
    recommendationId = rec.recommendationId;
    recommended = rec.bestExecutableRouteKey ?? "";
    await sys.router.stop();
  });
  afterAll(() => sys?.stop());
  afterEach(() => sys.ledger.assertConsistent());

  const send = (extra: Record<string, unknown> = {}) =>
    sys.executor.client.execute({
      userId: "router-down-user",
      domainKey: "email",
      capabilityId: "send",
      input: { to: "ada@example.com", subject: "s", text: "t", ...extra },
    });

  it("ranks as recommend does (cheapest first under the default goals), and falls back down the ranking", async () => {
    expect(await send()).toMatchObject({ routeKey: "email.send.resend", creditsCharged: 10 });
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx", count: 1 });
    const res = await send();
    expect(res.attempts.map((a) => a.routeKey)).toEqual(["email.send.resend", "email.send.sendgrid"]);
    expect(res).toMatchObject({ routeKey: "email.send.sendgrid", creditsCharged: 12 });
  });

  it("runs a recommendation the router stored before it went down", async () => {
    expect(recommended).not.toBe("");
    expect(await send({ recommendationId })).toMatchObject({ routeKey: recommended });
  });

  it("runs a pinned route without a ranking", async () => {
    expect(await send({ routeKey: "email.send.postmark" })).toMatchObject({ routeKey: "email.send.postmark", creditsCharged: 14 });
  });
});
