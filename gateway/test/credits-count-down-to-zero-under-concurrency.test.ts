// Scenario: 40 parallel executes against a wallet that pays for exactly 10. Exactly 10 run and are
// charged, 30 are refused with 402 before any provider call, the balance ends at 0 and equals the
// journal, and the provider was called exactly 10 times.
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { balance, emailBody, execute, expectBalanceEqualsJournal, newUser, settled, usage } from "./execute-helpers";

describe("credits count down to zero under concurrency", () => {
  let sys: BackedSystem;
  beforeAll(async () => {
    sys = await startBackedSystem();
  });
  afterAll(() => sys?.stop());

  it("charges exactly 10 of 40 parallel executes against a wallet for 10", async () => {
    const user = await newUser(sys, 100);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => execute(sys, user, "email", "send", emailBody({ provider: "resend" }))),
    );
    const elapsedMs = performance.now() - started;

    const byStatus = (status: number) => results.filter((r) => r.status === status);
    expect(byStatus(200)).toHaveLength(10);
    expect(byStatus(402)).toHaveLength(30);
    expect(byStatus(402).every((r) => r.body.code === "CREDITS_REQUIRED")).toBe(true);
    expect(byStatus(200).every((r) => r.body.creditsCharged === 10)).toBe(true);
    expect(sys.sandbox.control.calls("resend").map((c) => c.status)).toEqual(Array(10).fill(200));

    await settled(sys, user.userId);
    expect(await balance(sys, user)).toBe(0);
    const items = await usage(sys, user);
    expect(items).toHaveLength(10);
    expect(items.every((u) => u.status === "succeeded" && u.creditsCharged === 10)).toBe(true);
    await expectBalanceEqualsJournal(sys, user);
    console.info(`40 parallel executes (10 charged, 30 refused) took ${elapsedMs.toFixed(0)} ms`);
  });
});
