// Scenario: capabilities on paid rails really pay their sellers. Over MPP (geo time) and x402
// (people search on AgentCash), the seller first answers 402, then sees a signed payment from the
// service wallet, verifies and settles it, and only then serves; the user pays the route's credits.
import { SANDBOX_PRICES_ATOMIC } from "@agentic/sandbox";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, execute, expectBalanceEqualsJournal, newUser, settled, type TestUser } from "./execute-helpers";

describe("paid rails pay their sellers with verified payments", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 100);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  /** The seller saw a 402 without payment, then a paid call it verified and settled. */
  function expectPaidOnce(provider: string) {
    expect(
      sys.sandbox.control.calls(provider).map((c) => ({ status: c.status, paymentPresented: c.paymentPresented, settled: c.settled })),
    ).toEqual([
      { status: 402, paymentPresented: false, settled: false },
      { status: 200, paymentPresented: true, settled: true },
    ]);
  }

  it("pays the time seller over MPP for the current time and for a conversion", async () => {
    const wallet = sys.sandbox.control.balanceOf(sys.executor.walletAddress);
    const now = await execute(sys, user, "geo", "time-current", { timezone: "America/New_York" });
    expect([now.status, now.body.routeKey, now.body.creditsCharged]).toEqual([200, "geo.time.current.timeapi.mpp", 2]);
    expectPaidOnce("timeapi");
    sys.sandbox.control.clearCalls();
    const converted = await execute(sys, user, "geo", "time-convert", {
      datetime: "2026-11-01T01:30:00",
      fromTimezone: "America/New_York",
      toTimezone: "UTC",
    });
    expect([converted.status, converted.body.data.target.datetime]).toEqual([200, "2026-11-01T05:30:00"]);
    expectPaidOnce("timeapi");
    // Two payments of the seller's price left the service wallet; the user paid 2 credits each.
    expect(sys.sandbox.control.balanceOf(sys.executor.walletAddress)).toBe(wallet - 2n * BigInt(SANDBOX_PRICES_ATOMIC.timeapi));
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(96);
  });

  it("pays the people-search seller over x402 on AgentCash", async () => {
    const wallet = sys.sandbox.control.balanceOf(sys.executor.walletAddress);
    const res = await execute(sys, user, "enrichment", "people-search", { titles: ["engineer"], perPage: 2 });
    expect([res.status, res.body.routeKey, res.body.creditsCharged]).toEqual([200, "enrichment.people.search.apollo.agentcash", 25]);
    expect(res.body.data.people.length).toBe(2);
    expectPaidOnce("apollo");
    const paid = wallet - sys.sandbox.control.balanceOf(sys.executor.walletAddress);
    expect(paid).toBe(BigInt(SANDBOX_PRICES_ATOMIC.apollo));
    // The seller's price (atomic USDC, 6 decimals) never exceeds what the user is charged (1 credit = 1000 atomic).
    expect(paid).toBeLessThanOrEqual(25n * 1000n);
  });

  it("pays nothing and charges nothing when the seller's vendor fails after the 402", async () => {
    sys.sandbox.control.setFault({ provider: "apollo", mode: "5xx" });
    const wallet = sys.sandbox.control.balanceOf(sys.executor.walletAddress);
    const res = await execute(sys, user, "enrichment", "people-search", { titles: ["engineer"] });
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(sys.sandbox.control.calls("apollo").map((c) => c.settled)).toEqual([false, false]);
    expect(sys.sandbox.control.balanceOf(sys.executor.walletAddress)).toBe(wallet);
    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(100);
  });
});
