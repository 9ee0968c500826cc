// Money in and out by id or reference, decided once: replay, conflict, insufficient, apply.
import { decideGrant, decideMoveCredits } from "./decide-credits";
import { decideFinishTopUp } from "./decide-top-up";
import type { JournalEntry } from "./types";
import type { TopUpRecord } from "./top-up";

const T0 = new Date("2030-01-07T10:00:00.000Z");
const ids = () => {
  let n = 0;
  return () => `entry_${++n}`;
};
const grantEntry: JournalEntry = {
  entryId: "e0",
  userId: "u1",
  kind: "grant",
  amountCredits: 50,
  heldDeltaCredits: 0,
  referenceId: "g1",
  createdAt: T0,
};
const wallet = { userId: "u1", balanceCredits: 50, heldCredits: 20 };

describe("decideGrant", () => {
  it("replays the same grant, refuses another user or amount, and creates a missing wallet", () => {
    const cmd = { grantId: "g1", userId: "u1", amountCredits: 50, reason: "", now: T0 };
    expect(decideGrant(cmd, { existing: grantEntry, wallet }, ids())).toMatchObject({
      result: { status: "replayed", wallet },
      effects: { moves: [] },
    });
    expect(decideGrant({ ...cmd, amountCredits: 51 }, { existing: grantEntry, wallet }, ids()).result).toMatchObject({
      status: "conflict",
    });
    const granted = decideGrant({ ...cmd, grantId: "g2" }, { existing: null, wallet: null }, ids());
    expect(granted.result).toMatchObject({
      status: "granted",
      wallet: { balanceCredits: 50, heldCredits: 0 },
      entry: { entryId: "entry_1" },
    });
  });
});

describe("decideMoveCredits", () => {
  const cmd = {
    kind: "adjustment" as const,
    userId: "u1",
    amountCredits: -60,
    reason: "double grant",
    reference: "T-1",
    operator: "admin",
    now: T0,
  };

  it("never takes the available balance below zero (held credits are not available)", () => {
    expect(decideMoveCredits(cmd, { existing: null, wallet }, ids())).toMatchObject({
      result: { status: "insufficient", wallet },
      effects: { moves: [], usage: [] },
    });
  });

  it("records a movement with its usage item, and treats a grant id as a reference", () => {
    const decision = decideMoveCredits({ ...cmd, amountCredits: -50 }, { existing: null, wallet }, ids());
    expect(decision.result).toMatchObject({ status: "recorded", wallet: { balanceCredits: 0 } });
    expect(decision.effects.usage).toEqual([
      expect.objectContaining({ kind: "adjustment", usageId: "entry_1", reference: "T-1", amountCredits: -50 }),
    ]);
    expect(decideMoveCredits({ ...cmd, reference: "g1" }, { existing: grantEntry, wallet }, ids()).result).toMatchObject({
      status: "conflict",
    });
  });
});

describe("decideFinishTopUp", () => {
  const pending = { topUpId: "tu1", userId: "u1", network: "n", amountCredits: 250, state: "pending" } as TopUpRecord;

  it("credits once through a grant entry with its usage item; an ended one stays as it ended", () => {
    const decision = decideFinishTopUp(
      { topUpId: "tu1", outcome: { state: "credited", settlement: "{}" }, now: T0 },
      { topUp: pending, wallet: null },
      ids(),
    );
    expect(decision.result).toMatchObject({ status: "finished", record: { state: "credited" }, wallet: { balanceCredits: 250 } });
    expect(decision.effects.moves).toEqual([expect.objectContaining({ kind: "grant", referenceId: "tu1", reason: "top_up" })]);
    expect(decision.effects.usage).toEqual([expect.objectContaining({ kind: "top_up", reference: "tu1" })]);
    const credited = decision.effects.endedTopUps[0]!;
    expect(
      decideFinishTopUp({ topUpId: "tu1", outcome: { state: "failed", reason: "x" }, now: T0 }, { topUp: credited, wallet: null }, ids()),
    ).toMatchObject({
      result: { status: "already" },
      effects: { moves: [], endedTopUps: [] },
    });
  });
});
