// Without the router, execute keeps working: routes are tried cheapest first, with fallback, and
// pinned routes never needed the router at all.
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("execute while the router is down", () => {
  let sys: ExecutorSystem;
  beforeAll(async () => {
    sys = await startExecutorSystem();
    await sys.ledger.client.grantCredits({ grantId: "grant-router-down", userId: "router-down-user", amountCredits: 100, reason: "test" });
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

  it("takes the cheapest executable route, and falls back in price order", async () => {
    expect(await send()).toMatchObject({ routeKey: "email.send.resend", creditsCharged: 10 });
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx", count: 1 });
    const res = await send();
    expect(res.attempts.map((a) => a.routeKey)).toEqual(["email.send.resend", "email.send.sendgrid"]);
    expect(res).toMatchObject({ routeKey: "email.send.sendgrid", creditsCharged: 12 });
  });

  it("runs a pinned route without asking the router", async () => {
    expect(await send({ routeKey: "email.send.postmark" })).toMatchObject({ routeKey: "email.send.postmark", creditsCharged: 14 });
  });
});
