// Scenario: an Idempotency-Key makes execute safe to retry. The first result for (user, key) is
// replayed for the same request with no second charge or provider call (errors too); the same key
// with another body is a 409; a concurrent duplicate waits for the first result; a body refused
// by validation is the key's answer too (the key is claimed before the body is planned).
import { REPLAY_NOTE } from "@agentic/executor/testing";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, expectBalanceEqualsJournal, newUser, settled, type TestUser } from "./execute-helpers";

describe("execute is idempotent", () => {
  let sys: BackedSystem;
  let user: TestUser;
  let n = 0;
  const key = () => `order-${process.pid}-${++n}`;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 100);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  it("replays the first result for the same key and body: one charge, one provider call", async () => {
    const headers = { "idempotency-key": key() };
    const first = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    const again = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("execution-id")).toBe(first.headers.get("execution-id"));
    expect(sys.sandbox.control.calls("resend")).toHaveLength(1);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(90);
  });

  it("answers 409 IDEMPOTENCY_CONFLICT for the same key with a different body, running nothing", async () => {
    const headers = { "idempotency-key": key() };
    expect((await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers)).status).toBe(200);
    const other = await execute(sys, user, "email", "send", emailBody({ provider: "resend", subject: "Another report" }), headers);
    expect([other.status, other.body.code]).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
    expect(sys.sandbox.control.calls("resend")).toHaveLength(1);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(90);
  });

  it("makes a concurrent duplicate wait for the first request and replay its result", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 500, count: 1 });
    const headers = { "idempotency-key": key() };
    const [a, b] = await Promise.all([
      execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers),
      execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.providerMessageId).toBe(b.body.providerMessageId);
    expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")].sort()).toEqual(["true", null].sort());
    expect(sys.sandbox.control.calls("resend")).toHaveLength(1);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(90);
  });

  it("replays a stored failure too, without calling the provider again", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx", count: 1 });
    const headers = { "idempotency-key": key() };
    const first = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    const again = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    expect([first.status, first.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    // The same answer, with a hint that says it is the stored result and a new key is needed to retry.
    expect({ ...again.body, traceId: undefined, hint: undefined }).toEqual({ ...first.body, traceId: undefined, hint: undefined });
    expect(again.body.hint).toBe(`${first.body.hint} ${REPLAY_NOTE}`);
    expect(again.status).toBe(502);
    expect(sys.sandbox.control.calls("resend")).toHaveLength(1);
  });

  it("stores a body refused by validation as the key's answer: the fixed body takes a new key", async () => {
    // The key is claimed before the body is planned (so a replay never depends on today's catalog):
    // its refusal is its answer, like any other.
    const headers = { "idempotency-key": key() };
    const bad = await execute(sys, user, "email", "send", emailBody({ to: "not-an-address", provider: "resend" }), headers);
    expect([bad.status, bad.body.code]).toEqual([400, "INVALID_INPUT"]);
    const again = await execute(sys, user, "email", "send", emailBody({ to: "not-an-address", provider: "resend" }), headers);
    expect([again.status, again.body.code, again.body.hint]).toEqual([400, "INVALID_INPUT", `${bad.body.hint} ${REPLAY_NOTE}`]);
    const fixed = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), headers);
    expect([fixed.status, fixed.body.code]).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
    expect((await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), { "idempotency-key": key() })).status).toBe(200);
    expect(sys.sandbox.control.calls("resend")).toHaveLength(1);
  });

  it("keeps keys per user: another user's equal key runs its own execution", async () => {
    const shared = key();
    const other = await newUser(sys, 100);
    const mine = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }), { "idempotency-key": shared });
    const theirs = await execute(sys, other, "email", "send", emailBody({ provider: "resend" }), { "idempotency-key": shared });
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.body.providerMessageId).not.toBe(mine.body.providerMessageId);
    expect(sys.sandbox.control.calls("resend")).toHaveLength(2);
    await expectBalanceEqualsJournal(sys, other);
  });
});
