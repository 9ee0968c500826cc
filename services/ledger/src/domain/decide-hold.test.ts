// The order of checks of a hold, decided in one place: replay → quote draw → execution fence → spend
// policies → balance → effects. Each test makes every later check fail too, so the first one decides.
import type { HoldCommand } from "./ports";
import { reservationHoldId, type QuoteRecord } from "./quote";
import { newHold } from "./rules";
import type { SpendPolicy } from "./spend-policy";
import type { ExecutionRecord, Hold } from "./types";
import { decideHold, type HoldFacts } from "./decide-hold";

const T0 = new Date("2030-01-07T10:00:00.000Z");
const ids = () => {
  let n = 0;
  return () => `entry_${++n}`;
};

const cmd = (overrides: Partial<HoldCommand> = {}): HoldCommand => ({
  holdId: "h1",
  userId: "u1",
  amountCredits: 30,
  routeKey: "search.web/brave",
  expiresAt: new Date(T0.getTime() + 60_000),
  now: T0,
  ...overrides,
});

const quote: QuoteRecord = {
  quoteId: "q1",
  userId: "u1",
  keyId: "k1",
  capabilityKey: "search.web",
  routeKey: "search.web/brave",
  amountCredits: 30,
  requestHash: "hash",
  reservationHoldId: reservationHoldId("q1"),
  createdAt: T0,
  expiresAt: new Date(T0.getTime() + 60_000),
};
const reservation: Hold = newHold({ ...cmd({ holdId: quote.reservationHoldId }) });
const spentPolicy: SpendPolicy = { keyId: "k1", budgetCredits: 10, reset: "daily", capabilityCaps: [], createdAt: T0, updatedAt: T0 };
const endedExecution: ExecutionRecord = {
  executionId: "exe_1",
  userId: "u1",
  capabilityKey: "search.web",
  state: "succeeded",
  leaseExpiresAt: T0,
  createdAt: T0,
  expiresAt: new Date(T0.getTime() + 86_400_000),
  holdIds: [],
};
const execution = { executionId: "exe_1", capabilityKey: "search.web", leaseMs: 30_000, retentionMs: 86_400_000 };
const spend = { keyId: "k1", capabilityKey: "search.web" };
const noUsage = { spentCredits: 0, heldCredits: 0, byCapability: {} };

/** Facts where every check fails: an existing hold, a used quote, an ended execution, a spent budget, an empty wallet. */
const failingEverywhere = (): HoldFacts => ({
  existing: newHold(cmd({ amountCredits: 99 })),
  quote: { ...quote, usedByHoldId: "h0" },
  reservation,
  execution: endedExecution,
  spend: [{ policy: spentPolicy, scope: { keyId: spentPolicy.keyId }, usage: { ...noUsage, spentCredits: 10, heldCredits: 10 } }],
  wallet: { userId: "u1", balanceCredits: 0, heldCredits: 0 },
  unchargedToday: 0,
});

describe("decideHold: the order of checks", () => {
  const full = cmd({ quoteId: "q1", execution, spend });

  it("answers a reused hold id first (conflict, or replay with the same user and amount), writing nothing", () => {
    const facts = failingEverywhere();
    expect(decideHold(full, facts, ids())).toMatchObject({ result: { status: "conflict" }, effects: { moves: [], newHolds: [] } });
    const replay = decideHold(cmd({ amountCredits: 99 }), facts, ids());
    expect(replay.result).toMatchObject({ status: "replayed", hold: { holdId: "h1" } });
    expect(replay.effects.moves).toEqual([]);
  });

  it("then the quote it draws", () => {
    const facts = { ...failingEverywhere(), existing: null };
    expect(decideHold(full, facts, ids()).result).toEqual({ status: "quote_refused", reason: "used" });
    expect(decideHold(full, { ...facts, quote: null }, ids()).result).toEqual({ status: "quote_refused", reason: "not_found" });
  });

  it("then the execution's fence", () => {
    const facts = { ...failingEverywhere(), existing: null, quote };
    expect(decideHold(full, facts, ids()).result).toEqual({ status: "fenced", reason: "the execution has ended (succeeded)" });
  });

  it("then the spend policies", () => {
    const facts = { ...failingEverywhere(), existing: null, quote, execution: null };
    expect(decideHold(full, facts, ids()).result).toMatchObject({
      status: "spend_refused",
      refusal: { code: "SPEND_LIMIT_EXCEEDED", limit: "budget" },
    });
  });

  it("then the user's daily allowance of uncharged vendor work, before the balance", () => {
    const facts = { ...failingEverywhere(), existing: null, quote: null, reservation: null, execution: null, spend: [], unchargedToday: 3 };
    expect(decideHold(cmd({ execution, spend, unchargedAllowance: 3 }), facts, ids())).toMatchObject({
      result: { status: "uncharged_limit", count: 3, limit: 3 },
      effects: { moves: [], newHolds: [], executions: [] },
    });
    // Below the allowance (or with none), the balance decides.
    expect(decideHold(cmd({ unchargedAllowance: 4 }), facts, ids()).result).toMatchObject({ status: "insufficient" });
    expect(decideHold(cmd(), facts, ids()).result).toMatchObject({ status: "insufficient" });
  });

  it("then the balance, writing nothing", () => {
    const facts = { ...failingEverywhere(), existing: null, quote: null, reservation: null, execution: null, spend: [] };
    const decision = decideHold(cmd({ execution, spend }), facts, ids());
    expect(decision.result).toEqual({ status: "insufficient", wallet: { userId: "u1", balanceCredits: 0, heldCredits: 0 } });
    expect(decision.effects).toMatchObject({ moves: [], newHolds: [], executions: [], spend: [] });
    expect(decideHold(cmd(), { ...facts, wallet: null }, ids()).result).toMatchObject({ status: "insufficient" });
  });

  it("places the hold: one hold entry, the bucket and the execution, and answers the wallet after it", () => {
    const facts: HoldFacts = {
      existing: null,
      quote: null,
      reservation: null,
      execution: null,
      spend: [],
      wallet: { userId: "u1", balanceCredits: 100, heldCredits: 5 },
      unchargedToday: 0,
    };
    const decision = decideHold(cmd({ execution, spend }), facts, ids());
    expect(decision.result).toMatchObject({
      status: "created",
      hold: { holdId: "h1", state: "held", keyId: "k1" },
      wallet: { balanceCredits: 70, heldCredits: 35 },
    });
    expect(decision.effects.moves).toEqual([
      { entryId: "entry_1", userId: "u1", kind: "hold", amountCredits: -30, heldDeltaCredits: 30, referenceId: "h1", createdAt: T0 },
    ]);
    expect(decision.effects.spend).toEqual([
      { hold: expect.objectContaining({ holdId: "h1" }), delta: { heldCredits: 30, heldCount: 1, capturedCredits: 0, capturedCount: 0 } },
    ]);
    expect(decision.effects.executions).toEqual([
      { record: expect.objectContaining({ executionId: "exe_1", state: "running", holdIds: ["h1"] }), previous: null },
    ]);
  });

  it("draws a quote: the reservation ends and its credits count towards the balance, in the same effects", () => {
    const facts: HoldFacts = {
      existing: null,
      quote,
      reservation,
      execution: null,
      spend: [],
      wallet: { userId: "u1", balanceCredits: 0, heldCredits: 30 },
      unchargedToday: 0,
    };
    const decision = decideHold(cmd({ quoteId: "q1" }), facts, ids());
    expect(decision.result).toMatchObject({ status: "created", wallet: { balanceCredits: 0, heldCredits: 30 } });
    expect(decision.effects.endedHolds).toEqual([expect.objectContaining({ holdId: quote.reservationHoldId, state: "released" })]);
    expect(decision.effects.moves.map((m) => [m.kind, m.referenceId, m.amountCredits, m.heldDeltaCredits])).toEqual([
      ["release", quote.reservationHoldId, 30, -30],
      ["hold", "h1", -30, 30],
    ]);
    expect(decision.effects.usedQuotes).toEqual([{ quoteId: "q1", holdId: "h1" }]);
    expect(decideHold(cmd({ quoteId: "q1", amountCredits: 31 }), facts, ids()).result).toEqual({
      status: "quote_refused",
      reason: "amount_mismatch",
    });
  });

  it("counts a drawn quote's reservation once: its credits move to the hold, so the policy sees them once", () => {
    const attributed = newHold({ ...cmd({ holdId: quote.reservationHoldId }), spend });
    const budget = { ...spentPolicy, budgetCredits: 30 };
    // What the policy has spent is the open reservation itself (30 of 30): the draw still fits.
    const facts: HoldFacts = {
      existing: null,
      quote,
      reservation: attributed,
      execution: null,
      spend: [
        {
          policy: budget,
          scope: { keyId: budget.keyId },
          usage: { spentCredits: 30, heldCredits: 30, byCapability: { "search.web": { spentCredits: 30, count: 1 } } },
        },
      ],
      wallet: { userId: "u1", balanceCredits: 0, heldCredits: 30 },
      unchargedToday: 0,
    };
    expect(decideHold(cmd({ quoteId: "q1", spend }), facts, ids()).result).toMatchObject({ status: "created" });
    // Without the quote, the same usage leaves no room.
    expect(
      decideHold(
        cmd({ spend }),
        { ...facts, quote: null, reservation: null, wallet: { userId: "u1", balanceCredits: 30, heldCredits: 30 } },
        ids(),
      ).result,
    ).toMatchObject({
      status: "spend_refused",
    });
  });
});
