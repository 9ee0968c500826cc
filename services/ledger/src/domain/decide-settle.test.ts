// The order of a settlement, decided in one place: unknown hold → another user's → already ended
// (book what is missing, move nothing) → end it now (clamped charge, spend, usage, books, outcome).
import type { SettleCommand } from "./ports";
import { newHold, settledHold, settlementEffect } from "./rules";
import type { ExecutionRecord, Hold, PaymentDraft } from "./types";
import { decideSettle, type SettleFacts } from "./decide-settle";

const T0 = new Date("2030-01-07T10:00:00.000Z");
const T1 = new Date(T0.getTime() + 1_000);
const ids = () => {
  let n = 0;
  return () => `entry_${++n}`;
};
const hold: Hold = {
  ...newHold({
    holdId: "h1",
    userId: "u1",
    amountCredits: 10,
    routeKey: "r",
    expiresAt: new Date(T0.getTime() + 60_000),
    now: T0,
    spend: { keyId: "k1", capabilityKey: "c" },
  }),
  executionId: "exe_1",
};
const running: ExecutionRecord = {
  executionId: "exe_1",
  userId: "u1",
  capabilityKey: "c",
  state: "running",
  leaseExpiresAt: T1,
  createdAt: T0,
  expiresAt: new Date(T0.getTime() + 86_400_000),
  holdIds: ["h1"],
};
const payment: PaymentDraft = {
  rail: "x402",
  network: "eip155:84532",
  asset: "0xasset",
  amountAtomic: "5000",
  amountMicroUsd: 5_000,
  payTo: "0xseller",
  payer: "0xus",
  settlement: "settled",
};
const usage = {
  usageId: "use_1",
  createdAt: T1,
  productKey: "p",
  capabilityKey: "c",
  routeKey: "r",
  provider: "v",
  networkKey: "direct",
  status: "failed",
  durationMs: 5,
  traceId: "t",
  errorCode: "PROVIDER_TIMEOUT",
};
const facts = (overrides: Partial<SettleFacts> = {}): SettleFacts => ({
  hold,
  wallet: { userId: "u1", balanceCredits: 90, heldCredits: 10 },
  usageRecorded: false,
  payments: [],
  lossIds: [],
  resourceOwners: [],
  execution: running,
  unchargedRecorded: false,
  ...overrides,
});
const settle = (overrides: Partial<SettleCommand> = {}): SettleCommand => ({
  holdId: "h1",
  userId: "u1",
  kind: "capture",
  capturedCredits: 4,
  now: T1,
  ...overrides,
});

describe("decideSettle", () => {
  it("writes nothing for an unknown hold or another user's", () => {
    expect(decideSettle(settle(), facts({ hold: null }), ids())).toMatchObject({
      result: { status: "unknown_hold" },
      effects: { moves: [] },
    });
    expect(decideSettle(settle({ userId: "u2" }), facts(), ids())).toMatchObject({
      result: { status: "user_mismatch" },
      effects: { moves: [] },
    });
  });

  it("ends a held hold once: charge clamped to the hold, the rest returned, spend, usage and outcome in the same effects", () => {
    const decision = decideSettle(settle({ capturedCredits: 25, usage, outcome: { httpStatus: 200, body: { ok: true } } }), facts(), ids());
    expect(decision.result).toMatchObject({
      status: "applied",
      hold: { state: "captured", capturedCredits: 10 },
      wallet: { balanceCredits: 90, heldCredits: 0 },
      usageRecorded: true,
    });
    expect(decision.effects.endedHolds).toEqual([
      expect.objectContaining({ holdId: "h1", state: "captured", capturedCredits: 10, settledAt: T1 }),
    ]);
    expect(decision.effects.moves).toEqual([
      expect.objectContaining({ kind: "capture", referenceId: "h1", amountCredits: 0, heldDeltaCredits: -10 }),
    ]);
    expect(decision.effects.spend[0]!.delta).toEqual({ heldCredits: -10, heldCount: -1, capturedCredits: 10, capturedCount: 1 });
    expect(decision.effects.usage).toEqual([expect.objectContaining({ holdId: "h1", creditsCharged: 10, kind: "charge" })]);
    expect(decision.effects.executions).toEqual([{ record: expect.objectContaining({ state: "succeeded" }), previous: running }]);
  });

  it("books a released paid attempt's payment with its loss, once", () => {
    const first = decideSettle(settle({ kind: "release", capturedCredits: 0, usage, payments: [payment] }), facts(), ids());
    expect(first.result).toMatchObject({
      status: "applied",
      booked: {
        payments: [{ paymentId: "h1/0" }],
        losses: [{ paymentId: "h1/0", reason: "paid_attempt_released", errorCode: "PROVIDER_TIMEOUT" }],
      },
    });
    expect(first.effects.payments).toHaveLength(1);
    expect(first.effects.losses).toHaveLength(1);
    // A redelivery after the hold ended: nothing moves, and what is booked already is not booked again.
    const ended = settledHold(hold, settlementEffect(hold, "release", 0), T1);
    const again = decideSettle(
      settle({ kind: "release", capturedCredits: 0, usage, payments: [payment] }),
      facts({ hold: ended, usageRecorded: true, payments: first.effects.payments, lossIds: ["h1/0"] }),
      ids(),
    );
    expect(again.result).toMatchObject({ status: "already_settled", usageRecorded: false, booked: { payments: [], losses: [] } });
    expect(again.effects).toMatchObject({ moves: [], endedHolds: [], usage: [], payments: [], losses: [], spend: [] });
  });

  it("books a capture after expiry as paid and lost, and records its usage at 0", () => {
    const expired = settledHold(hold, settlementEffect(hold, "expiry", 0), T1);
    const decision = decideSettle(settle({ usage, payments: [payment] }), facts({ hold: expired }), ids());
    expect(decision.result).toMatchObject({
      status: "already_settled",
      usageRecorded: true,
      booked: { losses: [{ reason: "capture_after_hold_expired" }] },
    });
    expect(decision.effects.usage).toEqual([expect.objectContaining({ creditsCharged: 0 })]);
    expect(decision.effects.moves).toEqual([]);
  });

  it("keeps a resource with its first owner and reports the conflict", () => {
    const owner = { kind: "domain", resourceId: "x.io", provider: "v", userId: "u2", holdId: "h0", createdAt: T0 };
    const resources = [
      { kind: "domain", resourceId: "x.io", provider: "v" },
      { kind: "domain", resourceId: "y.io", provider: "v" },
    ];
    const decision = decideSettle(settle({ resources }), facts({ resourceOwners: [owner] }), ids());
    expect(decision.result).toMatchObject({ booked: { resourceConflicts: [owner] } });
    expect(decision.effects.resources).toEqual([expect.objectContaining({ resourceId: "y.io", userId: "u1" })]);
  });

  it("leaves an execution that had ended as it ended (the first completion wins)", () => {
    const ended = { ...running, state: "failed" as const, result: { httpStatus: 502 } };
    const decision = decideSettle(settle({ outcome: { httpStatus: 200 } }), facts({ execution: ended }), ids());
    expect(decision.effects.executions).toEqual([]);
  });

  it("books uncharged vendor work on our key once, when the hold charged nothing, as a loss at risk", () => {
    const work = { reason: "PROVIDER_TIMEOUT", estimatedCostMicroUsd: 10_000 };
    const released = decideSettle(settle({ kind: "release", capturedCredits: 0, usage, unchargedWork: work }), facts(), ids());
    expect(released.effects.unchargedWork).toEqual([
      expect.objectContaining({
        holdId: "h1",
        userId: "u1",
        routeKey: "r",
        executionId: "exe_1",
        reason: "PROVIDER_TIMEOUT",
        estimatedCostMicroUsd: 10_000,
        day: "2030-01-07",
      }),
    ]);
    expect(released.result).toMatchObject({
      booked: {
        losses: [
          {
            paymentId: "h1/vendor",
            reason: "vendor_work_not_charged",
            rail: "direct",
            settlement: "unknown",
            amountMicroUsd: 10_000,
            userId: "u1",
            routeKey: "r",
          },
        ],
      },
    });
    // It is no payment's loss: nothing is written among them.
    expect(released.effects.losses).toEqual([]);
    // A redelivery books it no more; a capture that charged books none.
    const ended = released.effects.endedHolds[0]!;
    expect(
      decideSettle(settle({ kind: "release", unchargedWork: work }), facts({ hold: ended, unchargedRecorded: true }), ids()).effects
        .unchargedWork,
    ).toEqual([]);
    expect(decideSettle(settle({ capturedCredits: 3, unchargedWork: work }), facts(), ids()).effects.unchargedWork).toEqual([]);
  });
});
