// Scenario: a provider fails. With fallback allowed, the next executable route serves the call and
// only that route is charged; the failed attempt is a failed usage item with 0 credits. Without
// fallback the call fails (502) and nothing is charged.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, expectBalanceEqualsJournal, newUser, settled, usage, type TestUser } from "./execute-helpers";

describe("fallback charges only the route that served", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 100);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  it("falls back from a failing resend to the next route and charges only that one", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend", allowFallback: true }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "sent", provider: "sendgrid", routeKey: "email.send.sendgrid", creditsCharged: 12 });
    expect(sys.sandbox.control.calls().map((c) => [c.provider, c.status])).toEqual([
      ["resend", 503],
      ["sendgrid", 202],
    ]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(88);
    expect((await usage(sys, user)).map((u) => [u.routeKey, u.status, u.creditsCharged, u.errorCode])).toEqual([
      ["email.send.sendgrid", "succeeded", 12, undefined],
      ["email.send.resend", "failed", 0, "PROVIDER_ERROR"],
    ]);
    // The first attempt's release travels over the bus while the second hold is placed directly,
    // so the two may be journaled in either order; each hold is settled by its own entry.
    const entries = (await sys.ledger.client.listJournal({ userId: user.userId })).entries;
    expect(entries.map((e) => e.kind).sort()).toEqual(["capture", "grant", "hold", "hold", "release"]);
    const [first, second] = entries.filter((e) => e.kind === "hold").map((e) => e.referenceId);
    expect(entries.find((e) => e.kind === "release")?.referenceId).toBe(first);
    expect(entries.find((e) => e.kind === "capture")?.referenceId).toBe(second);
  });

  it("falls back across rails: the direct extract route fails, the MPP one serves", async () => {
    sys.sandbox.control.setFault({ provider: "firecrawl", mode: "5xx", count: 1 });
    const res = await execute(sys, user, "web", "extract", {
      url: "https://example.com/pricing",
      fields: ["pricing"],
      routeKey: "web.extract.firecrawl",
      allowFallback: true,
    });
    expect(res.body).toMatchObject({ routeKey: "web.extract.firecrawl.mpp", creditsCharged: 20 });
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(80);
  });

  it("with allowFallback: false fails with 502 and charges nothing, recording the failed attempt", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend", allowFallback: false }));
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(sys.sandbox.control.calls().map((c) => c.provider)).toEqual(["resend"]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(100);
    expect(await usage(sys, user)).toEqual([
      expect.objectContaining({ routeKey: "email.send.resend", status: "failed", creditsCharged: 0 }),
    ]);
  });

  it("fails with 502 when every route fails, having tried each once and charged nothing", async () => {
    for (const provider of ["resend", "sendgrid", "postmark"]) sys.sandbox.control.setFault({ provider, mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody());
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(res.body.error).toContain("every route tried");
    expect(
      sys.sandbox.control
        .calls()
        .map((c) => c.provider)
        .sort(),
    ).toEqual(["postmark", "resend", "sendgrid"]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(100);
    expect((await usage(sys, user)).every((u) => u.status === "failed" && u.creditsCharged === 0)).toBe(true);
  });
});
