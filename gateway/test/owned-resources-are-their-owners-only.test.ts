// Scenario: nobody spends what is not theirs. An inbox bought through us (on our AgentMail account) is
// its buyer's. Another user naming it gets 404, worded exactly as for an inbox that does not exist; an
// inboxId that is not one plain path segment is a 400; and a send naming an inbox runs only on the route
// that sends from it (email.send.agentmail.mpp), or is refused with a 400 saying why: never from our own
// domain instead. In every refusal nothing is held and no vendor sees a call.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { execute, expectBalanceEqualsJournal, journalKinds, newUser, emailBody, type TestUser } from "./execute-helpers";

const SENDERS = ["resend", "sendgrid", "postmark", "agentmail"];

describe("owned resources are their owners' only", () => {
  let sys: BackedSystem;
  let alice: TestUser;
  let bob: TestUser;
  let inboxId: string;

  beforeAll(async () => {
    sys = await startBackedSystem();
    alice = await newUser(sys, 3_000);
    bob = await newUser(sys, 3_000);
    const bought = await execute(sys, alice, "email", "inbox-buy", { username: `alice-${process.pid}`, displayName: "Alice's agent" });
    expect([bought.status, bought.body.routeKey]).toEqual([200, "email.inbox.buy.agentmail.mpp"]);
    inboxId = bought.body.data.inboxId;
  });
  afterAll(() => sys?.stop());
  beforeEach(() => sys.sandbox.control.reset());
  afterEach(async () => {
    await expectBalanceEqualsJournal(sys, alice);
    await expectBalanceEqualsJournal(sys, bob);
  });

  /** No vendor that sends email saw any call. */
  const noSenderCalled = () => expect(SENDERS.flatMap((p) => sys.sandbox.control.calls(p))).toEqual([]);

  it("records the bought inbox as its buyer's, with the execution that created it", async () => {
    await expect(
      sys.ledger.client.getOwnedResource({ userId: alice.userId, kind: "email.inbox", resourceId: inboxId }),
    ).resolves.toMatchObject({
      resource: {
        kind: "email.inbox",
        resourceId: inboxId,
        provider: "agentmail",
        userId: alice.userId,
        executionId: expect.stringMatching(/^exe_/),
      },
    });
  });

  it("answers another user naming it 404, as for an inbox that does not exist; nothing is held, no vendor called", async () => {
    const before = await journalKinds(sys, bob);
    const others = await execute(sys, bob, "email", "send", emailBody({ inboxId }));
    const missing = await execute(sys, bob, "email", "send", emailBody({ inboxId: "nobody-here@agentmail.to" }));
    const pinned = await execute(sys, bob, "email", "send", emailBody({ inboxId, routeKey: "email.send.agentmail.mpp" }));
    for (const res of [others, missing, pinned]) expect([res.status, res.body.code]).toEqual([404, "RESOURCE_NOT_FOUND"]);
    expect(others.body.error.replace(inboxId, "ID")).toBe(missing.body.error.replace("nobody-here@agentmail.to", "ID"));
    expect(others.body.hint).toBe(missing.body.hint);
    expect(others.body.error).toMatch(/^inboxId: /);
    expect(others.headers.get("execution-id")).toBeNull();
    noSenderCalled();
    expect(await journalKinds(sys, bob)).toEqual(before);
  });

  it("refuses an inboxId that is not one plain path segment with 400 naming it, before anything else", async () => {
    for (const bad of ["..", ".", "../../v0/inboxes", "a/b", "%2e%2e", "bot@agentmail.to?x=1", "a b"]) {
      const res = await execute(sys, alice, "email", "send", emailBody({ inboxId: bad }));
      expect([bad, res.status, res.body.code, res.body.error]).toEqual([bad, 400, "INVALID_INPUT", expect.stringMatching(/^inboxId: /)]);
    }
    noSenderCalled();
  });

  it("sends from the owner's inbox, unpinned, and from no other sender: a pin on a route or provider that would ignore it is a 400", async () => {
    const before = await journalKinds(sys, alice);
    // A pin on a route or provider that would ignore the inbox is refused, never served from our domain.
    const pinnedRoute = await execute(sys, alice, "email", "send", emailBody({ inboxId, routeKey: "email.send.resend" }));
    const pinnedProvider = await execute(sys, alice, "email", "send", emailBody({ inboxId, provider: "sendgrid" }));
    expect([pinnedRoute.status, pinnedRoute.body.error]).toEqual([
      400,
      expect.stringMatching(/^inboxId: route email\.send\.resend cannot use it/),
    ]);
    expect([pinnedProvider.status, pinnedProvider.body.error]).toEqual([
      400,
      expect.stringMatching(/^inboxId: provider sendgrid cannot use it/),
    ]);
    noSenderCalled();
    expect(await journalKinds(sys, alice)).toEqual(before);

    // Unpinned, the only route that can use it runs: sent from the owner's inbox over AgentMail.
    const sent = await execute(sys, alice, "email", "send", emailBody({ inboxId }));
    expect([sent.status, sent.body.routeKey]).toEqual([200, "email.send.agentmail.mpp"]);
    const calls = SENDERS.flatMap((p) => sys.sandbox.control.calls(p)).filter((c) => c.status === 200);
    expect(calls.map((c) => [c.provider, c.path])).toEqual([["agentmail", `/v0/inboxes/${encodeURIComponent(inboxId)}/messages/send`]]);
  });

  it("recommends no route that would ignore the named inbox", async () => {
    const res = await sys.authed("/domains/email/capabilities/send/recommend", {
      key: alice.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inboxId, optimizationPreferences: ["cost"] }),
    });
    const body = (await res.json()) as {
      recommendedRouteKey: string;
      bestExecutableRouteKey?: string;
      candidates: Array<{ routeKey: string; score: number; canExecuteNow: boolean; blockingRequirements: string[] }>;
    };
    expect(res.status).toBe(200);
    expect(body.recommendedRouteKey).toBe("email.send.agentmail.mpp");
    expect(body.bestExecutableRouteKey).toBe("email.send.agentmail.mpp");
    for (const c of body.candidates.filter((c) => c.routeKey !== "email.send.agentmail.mpp")) {
      expect(c).toMatchObject({ score: 0, canExecuteNow: false, blockingRequirements: expect.arrayContaining(["RESOURCE_UNSUPPORTED"]) });
    }
  });
});
