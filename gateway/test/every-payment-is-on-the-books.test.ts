// Scenario: every payment the platform makes to a seller (x402, MPP) is on the ledger's books once,
// whatever became of the attempt, and the reconciliation matches what the sandbox sellers received to
// the unit. Each way of paying without charging leaves a platform loss: a paid answer that cannot be
// read, a seller that settles an error answer, an answer too large to read, a seller that refuses the
// signed authorization (x402 and MPP), and a paid request that never got an answer.
import { MPP_RECIPIENT, X402_PAY_TO, type CallRecord } from "@agentic/sandbox";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { execute, expectBalanceEqualsJournal, newUser, settled, type TestUser } from "./execute-helpers";

interface Call {
  domain: string;
  capability: string;
  body: Record<string, unknown>;
  routeKey: string;
  provider: string;
}

const TIME: Call = {
  domain: "geo",
  capability: "time-current",
  body: { timezone: "Asia/Tokyo" },
  routeKey: "geo.time.current.timeapi.mpp",
  provider: "timeapi",
};
const PEOPLE: Call = {
  domain: "enrichment",
  capability: "people-search",
  body: { titles: ["engineer"], perPage: 2 },
  routeKey: "enrichment.people.search.apollo.agentcash",
  provider: "apollo",
};

// A range around today: this file's ledger is fresh, so it holds this file's bookings only.
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const RANGE = () => ({ fromDate: day(-1), toDate: day(1) });

describe("every payment is on the books", () => {
  let sys: BackedSystem;
  let user: TestUser;
  /** Every call the sellers received in this file (the sandbox's log is reset between tests). */
  const calls: CallRecord[] = [];
  let sellersBefore: bigint;
  const sellers = () => sys.sandbox.control.balanceOf(X402_PAY_TO) + sys.sandbox.control.balanceOf(MPP_RECIPIENT);

  beforeAll(async () => {
    // A paid request left unanswered is given up on after 1.5 s.
    sys = await startBackedSystem({ executorEnv: { PROVIDER_TIMEOUT_MS: "1500" } });
    user = await newUser(sys, 10_000);
    sellersBefore = sellers();
  });
  afterAll(() => sys?.stop());
  beforeEach(() => sys.sandbox.control.reset());
  afterEach(async () => {
    calls.push(...sys.sandbox.control.calls());
    await expectBalanceEqualsJournal(sys, user);
  });

  const run = (c: Call) => execute(sys, user, c.domain, c.capability, c.body);
  const losses = async () => (await sys.ledger.client.getReconciliation(RANGE())).losses;

  it("books a served payment with its capture, over MPP and over x402, and no loss", async () => {
    for (const c of [TIME, PEOPLE]) expect([(await run(c)).status]).toEqual([200]);
    await settled(sys, user.userId);
    const { payments } = await sys.ledger.client.listOutgoingPayments(RANGE());
    expect(payments.map((p) => [p.routeKey, p.rail, p.settlement, p.amountMicroUsd])).toEqual([
      [TIME.routeKey, "mpp", "settled", 1_000],
      [PEOPLE.routeKey, "x402", "settled", 20_000],
    ]);
    expect(payments.every((p) => /^0x[0-9a-f]{64}$/.test(p.reference) && p.executionId.startsWith("exe_"))).toBe(true);
    expect(await losses()).toEqual([]);
  });

  it("writes a loss when the paid answer cannot be read (the seller settled it), with the release", async () => {
    sys.sandbox.control.setFault({ provider: "timeapi", mode: "garbage", count: 1 });
    const res = await run(TIME);
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    await settled(sys, user.userId);
    expect((await losses()).at(-1)).toMatchObject({
      routeKey: TIME.routeKey,
      reason: "paid_attempt_released",
      settlement: "settled",
      amountMicroUsd: 1_000,
      errorCode: "PROVIDER_ERROR",
    });
  });

  it("writes a loss when a seller settles an error answer", async () => {
    sys.sandbox.control.x402.settleFailedCalls = true;
    sys.sandbox.control.setFault({ provider: "apollo", mode: "5xx", count: 1 });
    const res = await run(PEOPLE);
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(sys.sandbox.control.calls("apollo").at(-1)).toMatchObject({ status: 503, settled: true });
    await settled(sys, user.userId);
    expect((await losses()).at(-1)).toMatchObject({
      routeKey: PEOPLE.routeKey,
      reason: "paid_attempt_released",
      settlement: "settled",
      amountMicroUsd: 20_000,
    });
  });

  it("fails an answer too large to read before any capture, and writes its loss", async () => {
    sys.sandbox.control.setFault({ provider: "timeapi", mode: "oversize", count: 1 });
    const res = await run(TIME);
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(res.body.hint).toMatch(/may still have completed/);
    await settled(sys, user.userId);
    expect((await losses()).at(-1)).toMatchObject({ routeKey: TIME.routeKey, reason: "paid_attempt_released", settlement: "settled" });
  });

  it("books an authorization the seller refused after we signed it, over x402 and MPP, as a loss at risk", async () => {
    sys.sandbox.control.facilitator.failNextSettles = 1;
    expect((await run(PEOPLE)).status).toBe(502);
    const wallet = sys.sandbox.control.balanceOf(sys.executor.walletAddress);
    sys.sandbox.control.setBalance(sys.executor.walletAddress, 0n);
    try {
      expect((await run(TIME)).status).toBe(502);
    } finally {
      sys.sandbox.control.setBalance(sys.executor.walletAddress, wallet);
    }
    await settled(sys, user.userId);
    expect((await losses()).slice(-2)).toMatchObject([
      { routeKey: PEOPLE.routeKey, reason: "seller_rejected_signed_payment", settlement: "rejected", amountMicroUsd: 20_000 },
      { routeKey: TIME.routeKey, reason: "seller_rejected_signed_payment", settlement: "rejected", amountMicroUsd: 1_000 },
    ]);
  });

  it("books a paid request that never got an answer as unknown, a loss at risk", async () => {
    sys.sandbox.control.setFault({ provider: "timeapi", mode: "timeout", count: 1 });
    const res = await run(TIME);
    expect([res.status, res.body.code]).toEqual([504, "PROVIDER_TIMEOUT"]);
    await settled(sys, user.userId);
    expect((await losses()).at(-1)).toMatchObject({ routeKey: TIME.routeKey, reason: "payment_outcome_unknown", settlement: "unknown" });
  });

  it("has booked every credential the sellers received exactly once, and reconciles to the unit with what they were paid", async () => {
    await settled(sys, user.userId);
    const paidCalls = calls.filter((c) => c.paymentPresented);
    const { payments } = await sys.ledger.client.listOutgoingPayments(RANGE());
    // One booking per credential sent, each booked once (ids are unique per hold and position).
    expect(payments).toHaveLength(paidCalls.length);
    expect(new Set(payments.map((p) => p.paymentId)).size).toBe(payments.length);
    expect(payments.filter((p) => p.settlement === "settled")).toHaveLength(paidCalls.filter((c) => c.settled).length);
    const refs = payments.filter((p) => p.settlement === "settled").map((p) => p.reference);
    expect(new Set(refs).size).toBe(refs.length);

    const received = sellers() - sellersBefore; // atomic units of a 6-decimal USDC: micro-USD
    const report = await sys.ledger.client.getReconciliation(RANGE());
    expect(BigInt(report.totals!.paidOutMicroUsd)).toBe(received);
    expect(
      BigInt(
        payments.filter((p) => p.settlement === "settled" || p.settlement === "unconfirmed").reduce((s, p) => s + p.amountMicroUsd, 0),
      ),
    ).toBe(received);

    // Per route: what was charged (2 + 25 credits per served call) against what was paid.
    const row = (routeKey: string) => report.rows.filter((r) => r.routeKey === routeKey);
    expect(row(TIME.routeKey).reduce((s, r) => s + r.chargedCredits, 0)).toBe(2);
    expect(row(PEOPLE.routeKey).reduce((s, r) => s + r.chargedCredits, 0)).toBe(25);
    expect(row(TIME.routeKey).reduce((s, r) => s + r.paidOutMicroUsd, 0)).toBe(3_000); // served, garbage, oversize
    expect(row(PEOPLE.routeKey).reduce((s, r) => s + r.paidOutMicroUsd, 0)).toBe(40_000); // served, settled error
    expect(report.totals).toMatchObject({ lostMicroUsd: 22_000, atRiskMicroUsd: 22_000, chargedMicroUsd: 27_000 });
    expect(report.losses.map((l) => l.reason).sort()).toEqual(
      [
        "paid_attempt_released",
        "paid_attempt_released",
        "paid_attempt_released",
        "payment_outcome_unknown",
        "seller_rejected_signed_payment",
        "seller_rejected_signed_payment",
      ].sort(),
    );
    // Every loss names its payment, hold and execution.
    for (const l of report.losses)
      expect(payments.find((p) => p.paymentId === l.paymentId)).toMatchObject({ holdId: l.holdId, executionId: l.executionId });
  });
});
