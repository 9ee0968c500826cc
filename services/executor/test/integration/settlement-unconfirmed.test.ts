// When JetStream cannot take the capture of a call the provider already performed, the executor
// never answers success: it answers SETTLEMENT_UNCONFIRMED, and the unsettled hold expires and is
// released, so the user is not charged for that call (the safe direction).
import { EXECUTIONS_STREAM, ensureExecutionsStream } from "@agentic/platform";
import { waitFor } from "@agentic/testing";
import { startExecutorSystem, type ExecutorSystem } from "../system";

describe("a capture JetStream never acknowledges", () => {
  let sys: ExecutorSystem;
  beforeAll(async () => {
    sys = await startExecutorSystem({
      env: { PROVIDER_TIMEOUT_MS: "3000", SETTLEMENT_PUBLISH_TIMEOUT_MS: "500", HOLD_TTL_MS: "4000", IDEMPOTENCY_LEASE_MS: "15000" },
    });
  });
  afterAll(() => sys?.stop());

  it("is answered as SETTLEMENT_UNCONFIRMED, and the hold expires without charging", async () => {
    const userId = "unconfirmed-user";
    await sys.ledger.client.grantCredits({ grantId: "grant-unconfirmed", userId, amountCredits: 50, reason: "test" });
    // The provider takes a while; meanwhile the stream disappears, so the capture has nowhere to go.
    sys.sandbox.control.setFault({ provider: "resend", mode: "slow", delayMs: 1_000, count: 1 });
    const execution = sys.executor.client.execute({
      userId,
      domainKey: "email",
      capabilityId: "send",
      input: { to: "ada@example.com", subject: "s", text: "t", provider: "resend" },
    });
    const jsm = await sys.ledger.nc.jetstreamManager();
    await waitFor(() => sys.sandbox.control.calls("resend").length === 1, { what: "the provider call" });
    await jsm.streams.delete(EXECUTIONS_STREAM);

    await expect(execution).rejects.toMatchObject({ details: expect.stringContaining("could not be recorded") });
    expect(sys.sandbox.control.calls("resend").map((c) => c.status)).toEqual([200]);

    const hold = (await sys.ledger.client.listJournal({ userId })).entries.find((e) => e.kind === "hold");
    expect(hold?.amountCredits).toBe(-10);
    await sys.ledger.waitForExpiry(hold!.referenceId, { timeoutMs: 10_000 });
    const journal = await sys.ledger.client.listJournal({ userId });
    expect(journal.entries.map((e) => e.kind)).toEqual(["grant", "hold", "expiry"]);
    expect((await sys.ledger.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 50, heldCredits: 0 });
    expect(journal.journalBalanceCredits).toBe(50);
    await ensureExecutionsStream(jsm);
  });
});
