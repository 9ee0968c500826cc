// Scenario: a quote reserves the price of the route execute would run; an execute with the quote's id
// runs there at that price, once. An expired, reused or other-body quote fails clearly and charges
// nothing. Real services (a quote TTL of 1 s in the expiry case), sandbox vendors, real HTTP.
import { waitFor } from "@agentic/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, expectBalanceEqualsJournal, newUser, settled, usage, type TestUser } from "./execute-helpers";
import { validateResponse } from "./validate-response";

const QUOTE_PATH = "/domains/{domainKey}/capabilities/{capabilityId}/quote";

/** POST …/quote as `user`; fails the test when the answer does not match the OpenAPI document. */
async function quote(sys: BackedSystem, user: TestUser, body: Record<string, unknown>, capability = ["email", "send"]) {
  const res = await sys.authed(`/domains/${capability[0]}/capabilities/${capability[1]}/quote`, {
    key: user.key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const parsed: any = await res.json();
  const problems = validateResponse("post", QUOTE_PATH, res.status, parsed);
  if (problems.length > 0) throw new Error(`quote answered ${res.status} outside the OpenAPI document: ${problems.join("; ")}`);
  return { status: res.status, body: parsed, headers: res.headers };
}

describe("quotes run at their price", () => {
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

  it("quotes the route execute would run, reserves its price, and the execute with its id pays exactly that", async () => {
    // Two recipients: the per-recipient route is priced by the executor's own quote, 2 x 10.
    const body = emailBody({ cc: ["grace@example.com"], provider: "resend" });
    const q = await quote(sys, user, body);
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({
      quoteId: expect.stringMatching(/^quo_/),
      routeKey: "email.send.resend",
      provider: "resend",
      priceCredits: 20,
      balanceAfterCredits: 80,
      blockingRequirements: [],
      nextActions: [],
    });
    expect(Date.parse(q.body.expiresAt)).toBeGreaterThan(Date.now());
    expect(q.headers.get("agentic-route-decision")).toMatch(/^served=email\.send\.resend; tried=0; skipped=\d+$/);
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await balance(sys, user)).toBe(80);

    const res = await execute(sys, user, "email", "send", { ...body, quoteId: q.body.quoteId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ routeKey: "email.send.resend", creditsCharged: 20 });
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(80);
    expect((await usage(sys, user)).map((u) => [u.routeKey, u.status, u.creditsCharged])).toEqual([["email.send.resend", "succeeded", 20]]);
  });

  it("refuses a reused quote (409 QUOTE_ALREADY_USED) and runs nothing again", async () => {
    const q = await quote(sys, user, emailBody());
    const first = await execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }));
    expect(first.status).toBe(200);
    const again = await execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }));
    expect([again.status, again.body.code]).toEqual([409, "QUOTE_ALREADY_USED"]);
    expect(sys.sandbox.control.calls()).toHaveLength(1);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(100 - q.body.priceCredits);
  });

  it("runs a quote once when three executes race for it: one is served, the others refused, one charge", async () => {
    const q = await quote(sys, user, emailBody());
    const results = await Promise.all([1, 2, 3].map(() => execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(["QUOTE_ALREADY_USED", "QUOTE_ALREADY_USED"]);
    expect(sys.sandbox.control.calls()).toHaveLength(1);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(100 - q.body.priceCredits);
  });

  it("replays a quoted execute retried under its Idempotency-Key, and refuses the quote under another key", async () => {
    const q = await quote(sys, user, emailBody());
    const key = { "Idempotency-Key": `quoted-${user.userId}` };
    const first = await execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }), key);
    const retry = await execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }), key);
    expect([first.status, retry.status, retry.headers.get("idempotent-replayed")]).toEqual([200, 200, "true"]);
    expect(retry.body).toEqual(first.body);
    const otherKey = await execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }), {
      "Idempotency-Key": `other-${user.userId}`,
    });
    expect([otherKey.status, otherKey.body.code]).toEqual([409, "QUOTE_ALREADY_USED"]);
    expect(sys.sandbox.control.calls()).toHaveLength(1);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(100 - q.body.priceCredits);
  });

  it("refuses another body than the one quoted (409 QUOTE_MISMATCH), keeping the reservation for the quoted one", async () => {
    const q = await quote(sys, user, emailBody());
    const other = await execute(sys, user, "email", "send", emailBody({ subject: "Another subject", quoteId: q.body.quoteId }));
    expect([other.status, other.body.code]).toEqual([409, "QUOTE_MISMATCH"]);
    expect(other.body.hint).toContain("body you quoted");
    expect(sys.sandbox.control.calls()).toEqual([]);
    // The quote still runs for its own body.
    const res = await execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }));
    expect([res.status, res.body.routeKey, res.body.creditsCharged]).toEqual([200, q.body.routeKey, q.body.priceCredits]);
  });

  it("answers an unknown quote with 404, a quote body naming a quoteId with 400, and a short wallet with 402", async () => {
    const unknown = await execute(sys, user, "email", "send", emailBody({ quoteId: "quo_doesNotExist0000000000" }));
    expect([unknown.status, unknown.body.code]).toEqual([404, "QUOTE_NOT_FOUND"]);
    const nested = await quote(sys, user, emailBody({ quoteId: "quo_x" }));
    expect([nested.status, nested.body.code]).toEqual([400, "INVALID_INPUT"]);
    const badBody = await quote(sys, user, { subject: "no recipient" });
    expect([badBody.status, badBody.body.code]).toEqual([400, "INVALID_INPUT"]);
    const poor = await newUser(sys, 5);
    const short = await quote(sys, poor, emailBody());
    expect([short.status, short.body.code]).toEqual([402, "CREDITS_REQUIRED"]);
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await balance(sys, poor)).toBe(5);
  });
});

describe("an expired quote", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem({ executorEnv: { QUOTE_TTL_MS: "1000" } });
  });
  afterAll(() => sys?.stop());

  it("fails with 410 QUOTE_EXPIRED, calls nobody, and its reservation returns to the wallet", async () => {
    user = await newUser(sys, 100);
    const q = await quote(sys, user, emailBody());
    expect(q.status).toBe(200);
    const expiresAt = Date.parse(q.body.expiresAt);
    await waitFor(() => Date.now() > expiresAt, { what: "the quote's expiry", timeoutMs: 10_000 });
    const res = await execute(sys, user, "email", "send", emailBody({ quoteId: q.body.quoteId }));
    expect([res.status, res.body.code]).toEqual([410, "QUOTE_EXPIRED"]);
    expect(res.body.hint).toContain("new quote");
    expect(sys.sandbox.control.calls()).toEqual([]);
    await waitFor(async () => (await balance(sys, user)) === 100, {
      what: "the expired quote's credits back in the wallet",
      timeoutMs: 10_000,
    });
    await expectBalanceEqualsJournal(sys, user);
  });
});
