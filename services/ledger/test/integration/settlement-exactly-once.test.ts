// Captures and releases arrive over JetStream at least once; the ledger applies each hold's
// settlement exactly once, whatever the bus repeats, and acks only after its store write.
import { EXECUTIONS_STREAM, SUBJECT_SETTLED } from "@agentic/platform";
import { SETTLEMENT_DURABLE } from "../../src/bus/settlement-consumer";
import { lateCapturesTotal } from "../../src/metrics";
import type { LedgerStore, SettleCommand, SettleResult } from "../../src/domain/ports";
import { SettlementKind, openMemoryStore, publishSettlement, startTestLedger, type TestLedger } from "../harness";
import { uid, useNatsServer, useTestLedger } from "../support";
import { waitFor } from "@agentic/testing";

const nats = useNatsServer();

const CAPTURE = SettlementKind.SETTLEMENT_KIND_CAPTURE;
const RELEASE = SettlementKind.SETTLEMENT_KIND_RELEASE;

/** A user with `balance` credits and one open hold of `amount`. */
async function userWithHold(t: TestLedger, balance = 100, amount = 40, ttlMs = 0) {
  const userId = uid("user");
  const holdId = uid("hold");
  await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: balance, reason: "" });
  await t.client.holdCredits({ holdId, userId, amountCredits: amount, ttlMs, routeKey: "email.send/resend" });
  return { userId, holdId };
}

/** Resolves once the durable consumer has nothing undelivered and nothing un-acked. */
async function consumerIdle(t: TestLedger): Promise<void> {
  const jsm = await t.nc.jetstreamManager();
  await waitFor(
    async () => {
      const info = await jsm.consumers.info(EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    },
    { timeoutMs: 10_000, what: "the settlement consumer to go idle" },
  );
}

async function captures(t: TestLedger, userId: string, holdId: string) {
  return (await t.client.listJournal({ userId })).entries.filter((e) => e.referenceId === holdId && e.kind !== "hold");
}

describe("settlement over JetStream", () => {
  const ledger = useTestLedger(nats, { holdTtlMs: 60_000, sweepIntervalMs: 20 });

  it("a capture published three times with one Nats-Msg-Id is stored once and applied once", async () => {
    const t = ledger();
    const { userId, holdId } = await userWithHold(t);
    const usage = { usageId: uid("use"), capabilityKey: "email.send", status: "succeeded" };

    const acks = [];
    for (let i = 0; i < 3; i++) acks.push(await publishSettlement(t.nc, { holdId, userId, kind: CAPTURE, capturedCredits: 25, usage }));
    expect(acks.map((a) => a.duplicate)).toEqual([false, true, true]);
    expect(new Set(acks.map((a) => a.seq)).size).toBe(1);

    const [outcome] = await t.waitForSettlement(holdId);
    expect(outcome).toMatchObject({ result: "applied", hold: { state: "captured", capturedCredits: 25 } });
    await consumerIdle(t);
    expect(t.settlements.filter((s) => s.holdId === holdId)).toHaveLength(1);
    expect((await t.client.getWallet({ userId })).wallet).toEqual({ userId, balanceCredits: 75, heldCredits: 0 });
    expect(await captures(t, userId, holdId)).toMatchObject([{ kind: "capture", amountCredits: 15, heldDeltaCredits: -40 }]);
  });

  it("a republish after the de-dup window (new msg id, same hold id) is acked and ignored", async () => {
    const t = ledger();
    const { userId, holdId } = await userWithHold(t);
    const usage = { usageId: uid("use"), status: "succeeded" };

    await publishSettlement(t.nc, { holdId, userId, kind: CAPTURE, capturedCredits: 25, usage });
    const late = await publishSettlement(
      t.nc,
      { holdId, userId, kind: CAPTURE, capturedCredits: 25, usage },
      { msgId: `${holdId}:after-window` },
    );
    expect(late.duplicate).toBe(false); // the stream now holds two copies

    const outcomes = await t.waitForSettlement(holdId, { count: 2 });
    expect(outcomes.map((o) => o.result).sort()).toEqual(["already_settled", "applied"]);
    await consumerIdle(t);
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 75, heldCredits: 0 });
    expect(await captures(t, userId, holdId)).toHaveLength(1);
    expect((await t.client.listUsage({ userId, limit: 0 })).items).toMatchObject([{ id: usage.usageId, creditsCharged: 25, holdId }]);
  });

  it("the first settlement of a hold wins: a release, then a capture of the same hold, charges nothing", async () => {
    const t = ledger();
    const { userId, holdId } = await userWithHold(t);
    await publishSettlement(t.nc, { holdId, userId, kind: RELEASE, usage: { status: "failed", errorCode: "PROVIDER_TIMEOUT" } });
    await t.waitForSettlement(holdId);
    await publishSettlement(t.nc, { holdId, userId, kind: CAPTURE, capturedCredits: 40 }, { msgId: uid("msg") });
    const outcomes = await t.waitForSettlement(holdId, { count: 2 });
    expect(outcomes.map((o) => o.result)).toEqual(["applied", "already_settled"]);
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 100, heldCredits: 0 });
    expect((await t.client.getHold({ holdId })).hold).toMatchObject({ state: "released", capturedCredits: 0 });
    expect((await t.client.listUsage({ userId, limit: 0 })).items).toMatchObject([
      { status: "failed", errorCode: "PROVIDER_TIMEOUT", creditsCharged: 0 },
    ]);
  });

  it("a capture above the held amount charges the held amount, never more", async () => {
    const t = ledger();
    const { userId, holdId } = await userWithHold(t, 100, 40);
    await publishSettlement(t.nc, { holdId, userId, kind: CAPTURE, capturedCredits: 1_000 });
    await t.waitForSettlement(holdId);
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 60, heldCredits: 0 });
  });

  it("a capture that arrives after its hold expired charges nothing and still lists the usage, at 0", async () => {
    const t = ledger();
    const { userId, holdId } = await userWithHold(t, 100, 40, 50);
    await t.waitForExpiry(holdId);
    const lateBefore = (await lateCapturesTotal.get()).values[0]?.value ?? 0;
    await publishSettlement(t.nc, {
      holdId,
      userId,
      kind: CAPTURE,
      capturedCredits: 40,
      usage: { usageId: uid("use"), status: "succeeded" },
    });
    const [outcome] = await t.waitForSettlement(holdId);
    expect(outcome).toMatchObject({ result: "already_settled", hold: { state: "expired" } });
    expect((await lateCapturesTotal.get()).values[0]!.value).toBe(lateBefore + 1); // ledger_late_captures_total: alert on it
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 100, heldCredits: 0 });
    expect((await t.client.listUsage({ userId, limit: 0 })).items).toMatchObject([{ status: "succeeded", creditsCharged: 0, holdId }]);
  });

  it("a release for an unknown hold is acked, and a settlement naming another user is dead-lettered; neither changes anything", async () => {
    // (A capture for an unknown hold is retried, then dead-lettered: settlement-dead-letter.test.ts.)
    const t = ledger();
    const { userId, holdId } = await userWithHold(t);
    const unknown = uid("hold");
    await publishSettlement(t.nc, { holdId: unknown, userId, kind: RELEASE });
    await publishSettlement(t.nc, { holdId, userId: uid("intruder"), kind: CAPTURE, capturedCredits: 40 });
    await expect(t.waitForSettlement(unknown)).resolves.toMatchObject([{ result: "unknown_hold" }]);
    await expect(t.waitForSettlement(holdId)).resolves.toMatchObject([{ result: "user_mismatch", deadLettered: true }]);
    await consumerIdle(t);
    expect((await t.client.getHold({ holdId })).hold!.state).toBe("held");
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 60, heldCredits: 40 });
  });

  it("a message that can never be applied is terminated, not redelivered", async () => {
    const t = ledger();
    await t.nc.jetstream().publish(SUBJECT_SETTLED, new Uint8Array([0xff, 0xff, 0xff]), { msgID: uid("garbage") });
    await publishSettlement(t.nc, { holdId: uid("hold"), userId: "u", kind: SettlementKind.SETTLEMENT_KIND_UNSPECIFIED });
    await waitFor(() => t.settlements.filter((s) => s.result === "poison").length === 2, { timeoutMs: 10_000 });
    await consumerIdle(t);
  });
});

describe("settlement when the store fails", () => {
  /** A store (SQLite in memory) whose next settlements fail: before the write ("down"), or after it ("ack lost"). */
  async function flakyStore() {
    const inner = await openMemoryStore();
    const control = { failures: [] as Array<"before-write" | "after-write">, settleCalls: 0 };
    const settleHold = async (cmd: SettleCommand): Promise<SettleResult> => {
      control.settleCalls++;
      const failure = control.failures.shift();
      if (failure === "before-write") throw new Error("store unavailable");
      const result = await inner.settleHold(cmd);
      if (failure === "after-write") throw new Error("connection reset after commit");
      return result;
    };
    const store: LedgerStore = new Proxy(inner, {
      get: (target, name) => (name === "settleHold" ? settleHold : (Reflect.get(target, name, target) as unknown)),
    });
    return Object.assign(control, { store, close: () => inner.close() });
  }

  let t: TestLedger;
  let store: Awaited<ReturnType<typeof flakyStore>>;
  beforeEach(async () => {
    store = await flakyStore();
    t = await startTestLedger({ natsUrl: nats().url, store: store.store });
  });
  afterEach(async () => {
    await t.assertConsistent();
    await t.stop();
    await store.close();
  });

  it("a failed write is nak'ed and the redelivery applies it once", async () => {
    const { userId, holdId } = await userWithHold(t);
    store.failures.push("before-write", "before-write");
    await publishSettlement(t.nc, { holdId, userId, kind: CAPTURE, capturedCredits: 10 });
    await expect(t.waitForSettlement(holdId)).resolves.toMatchObject([{ result: "applied" }]);
    expect(store.settleCalls).toBe(3);
    await consumerIdle(t);
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 90, heldCredits: 0 });
  });

  it("a crash between the write and the ack: the redelivery finds the hold settled and charges nothing more", async () => {
    const { userId, holdId } = await userWithHold(t);
    store.failures.push("after-write");
    await publishSettlement(t.nc, { holdId, userId, kind: CAPTURE, capturedCredits: 10, usage: { usageId: uid("use") } });
    await expect(t.waitForSettlement(holdId)).resolves.toMatchObject([{ result: "already_settled", hold: { state: "captured" } }]);
    expect(store.settleCalls).toBe(2);
    await consumerIdle(t);
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 90, heldCredits: 0 });
    expect(await captures(t, userId, holdId)).toHaveLength(1);
    expect((await t.client.listUsage({ userId, limit: 0 })).items).toHaveLength(1);
  });
});
