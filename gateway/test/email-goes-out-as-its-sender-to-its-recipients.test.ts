// Scenario: email.send goes out only as a sender the caller owns, and to the recipients it is billed
// for. Over real HTTP with the provider sandbox's email vendors, each attack as a caller with a funded
// key would play it:
// - `from` on the platform's domain ("Security Team <security@…>") or a `replyTo` the caller does not
//   own is a 400 SENDER_NOT_OWNED naming the senders they may use, and no vendor sees a call;
// - the platform sender under the caller's display name goes out marked as relayed; an inbox the
//   caller bought goes out from that inbox (another user's is refused);
// - a `to` whose display name holds a comma list is refused (Postmark reads recipients as a comma
//   list: it would be billed as one recipient and sent to many); cc recipients are billed one each.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, expectBalanceEqualsJournal, newUser, settled, type TestUser } from "./execute-helpers";

const PLATFORM = "noreply@agentic.test";

describe("email goes out as its sender, to its recipients", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 10_000);
    sys.sandbox.control.clearCalls();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  it.each([
    ["from", { from: "Security Team <security@agentic.test>" }],
    ["from", { from: "billing@bank.example" }],
    ["replyTo", { replyTo: "attacker@evil.example" }],
    ["replyTo", { from: `Ada <${PLATFORM}>`, replyTo: "Security <security@agentic.test>" }],
  ])("refuses a %s the caller does not own with a 400 naming the senders it may use; no vendor is called", async (field, extra) => {
    for (const provider of [undefined, "resend", "postmark", "sendgrid"]) {
      const res = await execute(sys, user, "email", "send", emailBody({ ...extra, ...(provider ? { provider } : {}) }));
      expect([res.status, res.body.code]).toEqual([400, "SENDER_NOT_OWNED"]);
      expect(res.body.error).toContain(field);
      expect(res.body.nextActions).toEqual(expect.arrayContaining([expect.stringContaining(`Your Name <${PLATFORM}>`)]));
    }
    expect(sys.sandbox.control.calls()).toEqual([]);
    expect(await balance(sys, user)).toBe(10_000);
  });

  it("sends as the platform sender under the caller's display name, marked as relayed", async () => {
    const res = await execute(sys, user, "email", "send", emailBody({ from: `Ada's Shop <${PLATFORM}>`, provider: "resend" }));
    expect(res.status).toBe(200);
    expect(sys.sandbox.control.calls("resend").map((c) => (c.body as { from: string }).from)).toEqual([
      `Ada's Shop via Agentic API <${PLATFORM}>`,
    ]);
  });

  it("sends from an inbox the caller bought, and refuses it as another user's sender", async () => {
    const bought = await execute(sys, user, "email", "inbox-buy", { username: `sender-${process.pid}` });
    expect(bought.status).toBe(200);
    const inbox = bought.body.data.inboxId as string;
    sys.sandbox.control.clearCalls();

    const fromInbox = await execute(sys, user, "email", "send", emailBody({ from: inbox }));
    expect([fromInbox.status, fromInbox.body.routeKey]).toEqual([200, "email.send.agentmail.mpp"]);
    expect(
      sys.sandbox.control
        .calls("agentmail")
        .filter((c) => c.status === 200)
        .map((c) => c.path),
    ).toEqual([`/v0/inboxes/${encodeURIComponent(inbox)}/messages/send`]);
    const replyToInbox = await execute(sys, user, "email", "send", emailBody({ replyTo: inbox, provider: "postmark" }));
    expect(replyToInbox.status).toBe(200);
    expect(sys.sandbox.control.calls("postmark").map((c) => (c.body as { ReplyTo: string }).ReplyTo)).toEqual([inbox]);

    const other = await newUser(sys, 1_000);
    sys.sandbox.control.clearCalls();
    for (const extra of [{ from: inbox }, { replyTo: inbox, provider: "resend" }]) {
      const theirs = await execute(sys, other, "email", "send", emailBody(extra));
      expect([theirs.status, theirs.body.code]).toEqual([400, "SENDER_NOT_OWNED"]);
    }
    expect(sys.sandbox.control.calls()).toEqual([]);
    await expectBalanceEqualsJournal(sys, other);
    expect(await balance(sys, other)).toBe(1_000);
  });

  it.each([
    ["a comma list in a bare display name", { to: "a@x.io, b@x.io, c@x.io, Carol <carol@x.io>" }, /^to: /],
    ["a comma list in a quoted display name", { to: '"a@x.io, b@x.io, c@x.io" <carol@x.io>' }, /^to: /],
    ["a group", { to: "everyone: a@x.io, b@x.io, carol@x.io;" }, /^to: /],
    ["a comma list in a cc item", { cc: ["bob@x.io", "Team <a@x.io>, b@x.io"] }, /^cc\[1\]: /],
  ])("refuses a recipient holding %s: never billed as one recipient and sent to many", async (_, extra, field) => {
    const res = await execute(sys, user, "email", "send", emailBody({ ...extra, provider: "postmark" }));
    expect([res.status, res.body.code, res.body.error]).toEqual([400, "INVALID_INPUT", expect.stringMatching(field)]);
    expect(sys.sandbox.control.calls("postmark")).toEqual([]);
    expect(await balance(sys, user)).toBe(10_000);
  });

  it("bills each recipient it sends to, and sends each as one structured mailbox", async () => {
    const res = await execute(
      sys,
      user,
      "email",
      "send",
      emailBody({ to: '"Carol Doe" <carol@x.io>', cc: ["a@x.io", "Bob B <b@x.io>"], provider: "postmark" }),
    );
    expect([res.status, res.body.creditsCharged]).toEqual([200, 3 * 14]);
    const [call] = sys.sandbox.control.calls("postmark");
    expect([call?.body]).toEqual([expect.objectContaining({ To: "Carol Doe <carol@x.io>", Cc: "a@x.io, Bob B <b@x.io>" })]);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(10_000 - 42);
  });
});
