// CreateQuote's order of checks, decided in one place: replay → open quotes per key → spend policies
// (an open reservation counts against them) → balance → the reservation hold and the quote together.
import { MAX_OPEN_QUOTES_PER_KEY, type CreateQuoteCommand } from "./quote";
import type { SpendPolicy } from "./spend-policy";
import { decideCreateQuote, type QuoteFacts } from "./decide-quote";

const T0 = new Date("2030-01-07T10:00:00.000Z");
const ids = () => {
  let n = 0;
  return () => `entry_${++n}`;
};
const cmd: CreateQuoteCommand = {
  quoteId: "q1",
  userId: "u1",
  keyId: "k1",
  agentName: "alpha",
  capabilityKey: "c",
  routeKey: "r",
  amountCredits: 30,
  requestHash: "h",
  createdAt: T0,
  expiresAt: T0,
  now: T0,
};
const budget: SpendPolicy = { keyId: "k1", budgetCredits: 50, reset: "daily", capabilityCaps: [], createdAt: T0, updatedAt: T0 };
const spent = (credits: number) => ({ spentCredits: credits, heldCredits: credits, byCapability: {} });
const wallet = { userId: "u1", balanceCredits: 50, heldCredits: 20 };
const facts = (overrides: Partial<QuoteFacts> = {}): QuoteFacts => ({ existing: null, wallet, openQuotes: 0, spend: [], ...overrides });

describe("decideCreateQuote: the order of checks", () => {
  it("caps a key's open quotes before anything else is checked", () => {
    const decision = decideCreateQuote(
      cmd,
      facts({
        openQuotes: MAX_OPEN_QUOTES_PER_KEY,
        spend: [{ policy: budget, scope: { keyId: budget.keyId }, usage: spent(50) }],
        wallet: null,
      }),
      ids(),
    );
    expect(decision.result).toEqual({ status: "too_many_open_quotes", open: MAX_OPEN_QUOTES_PER_KEY, limit: MAX_OPEN_QUOTES_PER_KEY });
    expect(decision.effects.newHolds).toEqual([]);
  });

  it("then the spend policies: what open reservations and holds spent leaves no room", () => {
    const decision = decideCreateQuote(
      cmd,
      facts({ spend: [{ policy: budget, scope: { keyId: budget.keyId }, usage: spent(30) }], wallet: null }),
      ids(),
    );
    expect(decision.result).toMatchObject({
      status: "spend_refused",
      refusal: { code: "SPEND_LIMIT_EXCEEDED", limit: "budget", remaining: 20 },
    });
    expect(decision.effects.moves).toEqual([]);
  });

  it("then the balance", () => {
    expect(decideCreateQuote({ ...cmd, amountCredits: 51 }, facts(), ids()).result).toMatchObject({ status: "insufficient" });
  });

  it("reserves with the quote's spend attribution, so the open reservation counts against the policies", () => {
    const decision = decideCreateQuote(
      cmd,
      facts({ spend: [{ policy: budget, scope: { keyId: budget.keyId }, usage: spent(20) }] }),
      ids(),
    );
    expect(decision.result).toMatchObject({ status: "created", wallet: { balanceCredits: 20, heldCredits: 50 } });
    expect(decision.effects.newHolds).toEqual([
      expect.objectContaining({ holdId: "quote:q1", keyId: "k1", agentName: "alpha", capabilityKey: "c" }),
    ]);
    expect(decision.effects.spend).toEqual([
      {
        hold: expect.objectContaining({ holdId: "quote:q1" }),
        delta: { heldCredits: 30, heldCount: 1, capturedCredits: 0, capturedCount: 0 },
      },
    ]);
    expect(decision.effects.newQuotes).toEqual([expect.objectContaining({ quoteId: "q1", reservationHoldId: "quote:q1" })]);
  });

  it("replays an existing quote whatever the limits say now", () => {
    const existing = { ...cmd, reservationHoldId: "quote:q1" };
    const decision = decideCreateQuote(
      cmd,
      facts({
        existing,
        openQuotes: MAX_OPEN_QUOTES_PER_KEY,
        spend: [{ policy: budget, scope: { keyId: budget.keyId }, usage: spent(50) }],
      }),
      ids(),
    );
    expect(decision.result).toMatchObject({ status: "replayed" });
  });
});
