// One execution's money and events, seen from the outside: the hold is the attempt, a success is
// captured at exactly the route's price and a failure released, each with its usage item, on
// executions.settled with Nats-Msg-Id = hold id; every attempt reports a RouteOutcome to the router.
import { register } from "prom-client";
import { EXECUTIONS_STREAM, SUBJECT_SETTLED } from "@agentic/platform";
import { ExecutionSettled, SettlementKind } from "@agentic/proto/events/v1";
import type { ExecuteRequest } from "@agentic/proto/executor/v1";
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("settlement of an execution", () => {
  let sys: ExecutorSystem;
  let n = 0;
  /** A fresh user with `credits`. */
  const user = async (credits: number) => {
    const userId = `settle-user-${++n}`;
    await sys.ledger.client.grantCredits({ grantId: `grant-${userId}`, userId, amountCredits: credits, reason: "test" });
    return userId;
  };
  const email = (userId: string, extra: Record<string, unknown> = {}): ExecuteRequest => ({
    userId,
    domainKey: "email",
    capabilityId: "send",
    input: { to: "ada@example.com", subject: "Report", text: "Attached.", ...extra },
    agentName: "alpha_agent",
  });
  /** The settlement JetStream holds for a hold id, with its headers. */
  const settlementMessage = async (holdId: string) => {
    const jsm = await sys.ledger.nc.jetstreamManager();
    const info = await jsm.streams.info(EXECUTIONS_STREAM);
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(EXECUTIONS_STREAM, { seq }).catch(() => undefined);
      if (m?.subject === SUBJECT_SETTLED && m.header.get("Nats-Msg-Id") === holdId)
        return { event: ExecutionSettled.decode(m.data), headers: m.header };
    }
    throw new Error(`no settlement for ${holdId}`);
  };

  beforeAll(async () => {
    sys = await startExecutorSystem();
  });
  afterAll(() => sys?.stop());
  afterEach(() => sys.ledger.assertConsistent());

  it("captures exactly the route's price for a success, with a succeeded usage item", async () => {
    const userId = await user(100);
    const res = await sys.executor.client.execute(email(userId, { provider: "sendgrid" }));
    expect(res).toMatchObject({
      success: true,
      status: "sent",
      provider: "sendgrid",
      routeKey: "email.send.sendgrid",
      creditsCharged: 12,
      replayed: false,
    });
    const holdId = res.attempts[0]!.attemptId;
    expect(holdId).toMatch(/^att_/);

    const [applied] = await sys.ledger.waitForSettlement(holdId);
    expect(applied).toMatchObject({
      result: "applied",
      hold: { state: "captured", capturedCredits: 12, amountCredits: 12, routeKey: "email.send.sendgrid" },
    });
    const { event, headers } = await settlementMessage(holdId);
    expect(event).toMatchObject({ holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 12 });
    expect(event.usage).toMatchObject({
      productKey: "email.send",
      capabilityKey: "email.send",
      routeKey: "email.send.sendgrid",
      provider: "sendgrid",
      networkKey: "direct",
      status: "succeeded",
      agentName: "alpha_agent",
    });
    expect(headers.get("Nats-Msg-Id")).toBe(holdId);

    const { wallet } = await sys.ledger.client.getWallet({ userId });
    expect(wallet).toMatchObject({ balanceCredits: 88, heldCredits: 0 });
    const { items } = await sys.ledger.client.listUsage({ userId, limit: 0 });
    expect(items).toEqual([
      expect.objectContaining({
        routeKey: "email.send.sendgrid",
        status: "succeeded",
        creditsCharged: 12,
        agentName: "alpha_agent",
        holdId,
      }),
    ]);
    expect(items[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("releases the hold of a failed attempt and records it as failed with 0 credits", async () => {
    const userId = await user(100);
    sys.sandbox.control.setFault({ provider: "postmark", mode: "5xx", count: 1 });
    await expect(sys.executor.client.execute(email(userId, { provider: "postmark" }))).rejects.toMatchObject({
      details: expect.stringContaining("HTTP 503 from postmark"),
    });
    const [item] = await waitForUsage(userId, 1);
    expect(item).toMatchObject({ routeKey: "email.send.postmark", status: "failed", creditsCharged: 0, errorCode: "PROVIDER_ERROR" });
    const [settled] = await sys.ledger.waitForSettlement(item!.holdId!);
    expect(settled).toMatchObject({ result: "applied", hold: { state: "released" } });
    expect((await sys.ledger.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 100, heldCredits: 0 });
  });

  it("reports every attempt to the router and the executor's own ranking, and counts attempts, holds and credits in the metrics", async () => {
    const userId = await user(100);
    const before = sys.router.app.outcomes.applied;
    const rankedBefore = sys.executor.app.rankingOutcomes.applied;
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx", count: 1 });
    const res = await sys.executor.client.execute(email(userId, { provider: "resend", allowFallback: true }));
    expect(res.attempts.map((a) => [a.routeKey, a.ok, a.errorKind])).toEqual([
      ["email.send.resend", false, "http_5xx"],
      ["email.send.sendgrid", true, ""],
    ]);
    await Promise.all([sys.router.waitForOutcomes(before + 2), sys.executor.waitForOutcomes(rankedBefore + 2)]);
    const text = await register.metrics();
    expect(text).toMatch(/executor_provider_attempts_total\{route_key="email.send.resend",provider="resend",outcome="http_5xx"\} [1-9]/);
    expect(text).toMatch(/executor_credits_charged_total\{route_key="email.send.sendgrid"\} [1-9]/);
    expect(text).toMatch(/executor_holds_released_total\{route_key="email.send.resend"\} [1-9]/);
    expect(text).toMatch(/executor_provider_duration_seconds_count\{route_key="email.send.sendgrid"\} [1-9]/);
  });

  it("lets a fallback hold use the credits the failed attempt's release frees", async () => {
    // 12 credits: resend (10) fails, sendgrid (12) only fits once resend's hold is released.
    const userId = await user(12);
    sys.sandbox.control.setFault({ provider: "resend", mode: "5xx", count: 1 });
    const res = await sys.executor.client.execute(email(userId, { provider: "resend", allowFallback: true }));
    expect(res).toMatchObject({ routeKey: "email.send.sendgrid", creditsCharged: 12 });
    await sys.ledger.waitForSettlement(res.attempts[1]!.attemptId);
    expect((await sys.ledger.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 0, heldCredits: 0 });
  });

  /** Usage items of `userId` once there are `count`. */
  async function waitForUsage(userId: string, count: number) {
    for (const until = Date.now() + 5_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      const { items } = await sys.ledger.client.listUsage({ userId, limit: 0 });
      if (items.length >= count) return items;
    }
    throw new Error(`timed out waiting for ${count} usage items of ${userId}`);
  }
});
