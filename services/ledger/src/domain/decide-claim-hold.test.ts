// A claim and the first hold in one step: the claim's rule decides first (a key another request owns
// or answered holds nothing), then the hold's rule on the execution the claim creates; a refused hold
// leaves the claim standing, written as claimed, so its refusal can be stored as the key's answer.
import { claimAnswered, decideClaimHold, type ClaimHoldCommand } from "./decide-claim-hold";
import type { HoldFacts } from "./decide-hold";
import { newClaimedExecution } from "./rules";

const T0 = new Date("2030-01-07T10:00:00.000Z");
const MIN = 60_000;
const newEntryId = (() => {
  let n = 0;
  return () => `entry_${++n}`;
})();

const command = (amountCredits = 30, now = T0): ClaimHoldCommand => ({
  claim: {
    userId: "u1",
    key: "k1",
    requestHash: "hashA",
    executionId: "exe_1",
    capabilityKey: "email.send",
    leaseMs: MIN,
    retentionMs: 24 * 60 * MIN,
    now,
  },
  hold: {
    holdId: "h1",
    userId: "u1",
    amountCredits,
    routeKey: "email.send.resend",
    expiresAt: new Date(now.getTime() + 2 * MIN),
    now,
    execution: { executionId: "exe_1", capabilityKey: "email.send", idempotencyKey: "k1", leaseMs: MIN, retentionMs: 24 * 60 * MIN },
  },
});

const facts = (balanceCredits: number): Omit<HoldFacts, "execution"> => ({
  existing: null,
  quote: null,
  reservation: null,
  spend: [],
  wallet: { userId: "u1", balanceCredits, heldCredits: 0 },
  unchargedToday: 0,
});

describe("decideClaimHold", () => {
  it("claims a free key and holds for its execution, written once as running with its hold", () => {
    const d = decideClaimHold(command(), null, facts(100), newEntryId);
    expect(d.result.claim).toEqual({ state: "claimed", executionId: "exe_1" });
    expect(d.result.hold).toMatchObject({ status: "created", wallet: { balanceCredits: 70, heldCredits: 30 } });
    expect(d.effects.executions).toEqual([
      { record: expect.objectContaining({ executionId: "exe_1", state: "running", holdIds: ["h1"] }), previous: null },
    ]);
    expect(d.effects.newHolds.map((h) => h.holdId)).toEqual(["h1"]);
    expect(d.replaces).toBeNull();
  });

  it("writes nothing and holds nothing for a key another request runs", () => {
    const running = { ...newClaimedExecution({ ...command().claim, executionId: "exe_0" }), state: "running" as const, holdIds: ["h0"] };
    const d = decideClaimHold(command(), running, facts(100), newEntryId);
    expect(d.result).toEqual({
      claim: { state: "in_progress", executionId: "exe_0", leaseExpiresAt: running.leaseExpiresAt, started: true },
    });
    expect(d.effects.executions).toEqual([]);
    expect(d.effects.moves).toEqual([]);
  });

  it("keeps the claim when the balance is short: the execution is written as claimed, nothing is held", () => {
    const d = decideClaimHold(command(101), null, facts(100), newEntryId);
    expect(d.result.hold).toMatchObject({ status: "insufficient" });
    expect(d.effects.executions).toEqual([
      { record: expect.objectContaining({ executionId: "exe_1", state: "claimed", holdIds: [] }), previous: null },
    ]);
    expect(d.effects.moves).toEqual([]);
  });

  it("takes over a claim whose lease ran out, naming the record it replaces", () => {
    const stale = newClaimedExecution({ ...command().claim, executionId: "exe_0" });
    const d = decideClaimHold(command(30, new Date(T0.getTime() + MIN)), stale, facts(100), newEntryId);
    expect(d.result.claim).toEqual({ state: "claimed", executionId: "exe_1" });
    expect(d.replaces).toEqual({ record: stale, action: "take_over" });
  });
});

describe("claimAnswered", () => {
  it("answers a key another request runs before any fact of the hold is read, as decideClaimHold would", () => {
    const running = { ...newClaimedExecution({ ...command().claim, executionId: "exe_0" }), state: "running" as const, holdIds: ["h0"] };
    expect(claimAnswered(command(), running)).toEqual(decideClaimHold(command(), running, facts(100), newEntryId));
  });

  it("leaves a free key to the whole decision (the hold's facts are needed)", () => {
    expect(claimAnswered(command(), null)).toBeUndefined();
  });
});
