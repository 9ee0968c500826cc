// A caller who makes a vendor work on our key and gets nothing charged (a provoked timeout on a
// direct route, or an answer too large to read) costs the platform money: every such attempt is booked
// in the reconciliation as a loss at risk with its route, user, reason and estimated cost, and past a
// per-user daily allowance the caller's calls are refused with 429 UNCHARGED_FAILURES_LIMITED, before
// any provider is called.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { emailBody, execute, EXECUTE_PATH, expectBalanceEqualsJournal, newUser, settled, type TestUser } from "./execute-helpers";
import { validateResponse } from "./validate-response";

const ALLOWANCE = 2;
const PRICE = 10; // email.send on resend, in credits: 10,000 micro-USD

describe("provoked failures on a direct route", () => {
  let sys: BackedSystem;
  let user: TestUser;

  beforeAll(async () => {
    sys = await startBackedSystem({ executorEnv: { PROVIDER_TIMEOUT_MS: "500" }, unchargedDailyAllowance: ALLOWANCE });
  });
  afterAll(() => sys?.stop());
  beforeEach(async () => {
    user = await newUser(sys, 1_000);
    sys.sandbox.control.reset();
  });
  afterEach(() => expectBalanceEqualsJournal(sys, user));

  const today = () => new Date().toISOString().slice(0, 10);
  const reconciliation = () => sys.ledger.client.getReconciliation({ fromDate: today(), toDate: today() });

  it("books a provoked timeout as a loss at risk with route, user and reason, and past the daily allowance answers 429", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "timeout" });
    for (let i = 0; i < ALLOWANCE; i++) {
      const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }));
      expect([res.status, res.body.code]).toEqual([504, "PROVIDER_TIMEOUT"]);
    }
    await settled(sys, user.userId);
    expect((await sys.ledger.client.getWallet({ userId: user.userId })).wallet).toMatchObject({ balanceCredits: 1_000, heldCredits: 0 });

    const report = await reconciliation();
    const losses = report.losses.filter((l) => l.userId === user.userId);
    expect(losses).toHaveLength(ALLOWANCE);
    for (const loss of losses) {
      expect(loss).toMatchObject({
        reason: "vendor_work_not_charged",
        routeKey: "email.send.resend",
        userId: user.userId,
        rail: "direct",
        settlement: "unknown",
        errorCode: "PROVIDER_TIMEOUT",
        amountMicroUsd: PRICE * 1000,
      });
    }
    // At risk on the route's row (no payment was made; it is not counted as paid out).
    const row = report.rows.find((r) => r.routeKey === "email.send.resend" && r.date === today());
    expect(row?.atRiskMicroUsd).toBeGreaterThanOrEqual(ALLOWANCE * PRICE * 1000);
    expect(row?.paidOutMicroUsd).toBe(0);

    // The allowance is used: the next call is refused before it reaches the vendor, whatever the route.
    sys.sandbox.control.reset();
    const refused = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }));
    expect([refused.status, refused.body.code]).toEqual([429, "UNCHARGED_FAILURES_LIMITED"]);
    expect(refused.body.error).toContain(`Today ${ALLOWANCE} calls of this account ended without a charge`);
    expect(refused.body.hint).toContain("the next UTC day");
    const untilMidnight =
      (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;
    expect(Math.abs(Number(refused.headers.get("retry-after")) - untilMidnight)).toBeLessThan(60);
    expect(validateResponse("post", EXECUTE_PATH, 429, refused.body)).toEqual([]);
    expect(sys.sandbox.control.calls()).toEqual([]);

    // Another user's allowance is its own.
    const other = await newUser(sys, 1_000);
    const served = await execute(sys, other, "email", "send", emailBody({ provider: "resend" }));
    expect(served.status).toBe(200);
    await settled(sys, other.userId);
    await expectBalanceEqualsJournal(sys, other);
  });

  it("books an answer too large to read on a direct route the same way: the vendor worked, nothing was charged", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "oversize", bytes: 3 * 1024 * 1024, count: 1 });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }));
    expect([res.status, res.body.code]).toEqual([502, "PROVIDER_ERROR"]);
    await settled(sys, user.userId);
    expect((await sys.ledger.client.getWallet({ userId: user.userId })).wallet).toMatchObject({ balanceCredits: 1_000 });
    expect((await reconciliation()).losses.filter((l) => l.userId === user.userId)).toEqual([
      expect.objectContaining({
        reason: "vendor_work_not_charged",
        routeKey: "email.send.resend",
        errorCode: "PROVIDER_ERROR",
        amountMicroUsd: PRICE * 1000,
      }),
    ]);
  });

  it("books nothing for a failure the vendor certainly did not act on (a refused input)", async () => {
    sys.sandbox.control.setFault({ provider: "resend", mode: "fail", status: 422 });
    const res = await execute(sys, user, "email", "send", emailBody({ provider: "resend" }));
    expect([res.status, res.body.code]).toEqual([400, "PROVIDER_REJECTED_INPUT"]);
    await settled(sys, user.userId);
    expect((await reconciliation()).losses.filter((l) => l.userId === user.userId)).toEqual([]);
  });
});
