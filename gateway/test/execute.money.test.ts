// Money through execute: each route charges exactly its price (the wallet falls by creditsCharged,
// a usage item says so), a failed attempt is released and shows as a failed usage item with 0
// credits, and after every test the balance equals the ledger's journal.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import {
  balance,
  emailBody,
  execute,
  expectBalanceEqualsJournal,
  journalKinds,
  newUser,
  settled,
  usage,
  type TestUser,
} from "./execute-helpers";

describe("POST execute (money)", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 500);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  it.each([
    ["resend", 10],
    ["sendgrid", 12],
    ["postmark", 14],
  ])("charges %s per recipient, as the vendor bills: to + 2 cc + 1 bcc is 4 x %i credits", async (provider, price) => {
    const before = await balance(sys, user);
    const res = await execute(
      sys,
      user,
      "email",
      "send",
      emailBody({ provider, cc: ["b@example.com", "c@example.com"], bcc: ["d@example.com"] }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider, creditsCharged: 4 * price });
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(before - 4 * price);
    expect((await usage(sys, user))[0]).toMatchObject({ routeKey: `email.send.${provider}`, creditsCharged: 4 * price });
  });

  it.each([
    ["resend", 10],
    ["sendgrid", 12],
    ["postmark", 14],
  ])("sends through %s (pinned by provider), and the wallet falls by exactly its %i credits", async (provider, price) => {
    const before = await balance(sys, user);
    const res = await execute(sys, user, "email", "send", emailBody({ provider }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "sent", provider, routeKey: `email.send.${provider}`, creditsCharged: price });
    expect(sys.sandbox.control.calls(provider).map((c) => c.status)).toEqual([provider === "sendgrid" ? 202 : 200]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(before - price);
    expect(await usage(sys, user)).toEqual([
      expect.objectContaining({
        routeKey: `email.send.${provider}`,
        provider,
        networkKey: "direct",
        status: "succeeded",
        creditsCharged: price,
        productKey: "email.send",
        capabilityKey: "email.send",
      }),
    ]);
    expect(await journalKinds(sys, user)).toEqual(["grant", "hold", "capture"]);
  });

  it("charges the price of MPP and x402 routes in credits, whatever the rail paid", async () => {
    const time = await execute(sys, user, "geo", "time-current", { timezone: "Europe/Lisbon" });
    const people = await execute(sys, user, "enrichment", "people-search", { companyDomains: ["northwind.example"] });
    expect([time.status, time.body.creditsCharged, people.status, people.body.creditsCharged]).toEqual([200, 2, 200, 25]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(500 - 2 - 25);
    expect((await usage(sys, user)).map((u) => [u.routeKey, u.networkKey, u.creditsCharged])).toEqual([
      ["enrichment.people.search.apollo.agentcash", "agentcash", 25],
      ["geo.time.current.timeapi.mpp", "mpp", 2],
    ]);
  });

  it("releases a failed attempt: 0 credits, a failed usage item, the balance back where it was", async () => {
    sys.sandbox.control.setFault({ provider: "sendgrid", mode: "5xx" });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "sendgrid" }));
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(500);
    expect(await usage(sys, user)).toEqual([
      expect.objectContaining({ routeKey: "email.send.sendgrid", status: "failed", creditsCharged: 0, errorCode: "PROVIDER_ERROR" }),
    ]);
    expect(await journalKinds(sys, user)).toEqual(["grant", "hold", "release"]);
  });

  it("refuses a route the wallet cannot pay for without holding anything, and runs once credits are added", async () => {
    user = await newUser(sys, 11);
    const short = await execute(sys, user, "email", "send", emailBody({ provider: "sendgrid" }));
    expect([short.status, short.body.code]).toEqual([402, "CREDITS_REQUIRED"]);
    // The amounts, as data: what the call needs, what the wallet has, what to add.
    expect(short.body).toMatchObject({ requiredCredits: 12, balanceCredits: 11, missingCredits: 1 });
    expect(await journalKinds(sys, user)).toEqual(["grant"]);
    await sys.ledger.client.grantCredits({ grantId: `top-up-${user.userId}`, userId: user.userId, amountCredits: 1, reason: "top_up" });
    const paid = await execute(sys, user, "email", "send", emailBody({ provider: "sendgrid" }));
    expect([paid.status, paid.body.creditsCharged]).toEqual([200, 12]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(0);
  });
});
