// A hold that is never settled is released by the sweeper after its TTL, exactly once, even with
// several ledger replicas sweeping the same store.
import { assertLedgerConsistent, startTestLedger, openMemoryStore } from "../harness";
import { uid, useNatsServer, useTestLedger } from "../support";
import { waitFor } from "@agentic/testing";

const nats = useNatsServer();

describe("hold expiry", () => {
  const ledger = useTestLedger(nats, { holdTtlMs: 150, sweepIntervalMs: 20 });

  it("releases an unsettled hold after its TTL (journal kind expiry)", async () => {
    const t = ledger();
    const userId = uid("user");
    const holdId = uid("hold");
    await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 50, reason: "" });
    const { hold, wallet } = await t.client.holdCredits({ holdId, userId, amountCredits: 20, ttlMs: 0, routeKey: "" });
    expect(wallet).toMatchObject({ balanceCredits: 30, heldCredits: 20 });
    expect(hold!.expiresAt!.getTime() - hold!.createdAt!.getTime()).toBe(150);

    const expired = await t.waitForExpiry(holdId);
    expect(expired).toMatchObject({ holdId, state: "expired", capturedCredits: 0 });
    expect(Date.now()).toBeGreaterThanOrEqual(hold!.expiresAt!.getTime());
    expect((await t.client.getHold({ holdId })).hold).toMatchObject({ state: "expired" });
    expect((await t.client.getWallet({ userId })).wallet).toEqual({ userId, balanceCredits: 50, heldCredits: 0 });
    const journal = await t.client.listJournal({ userId });
    expect(journal.entries.map((e) => [e.kind, e.amountCredits, e.heldDeltaCredits])).toEqual([
      ["grant", 50, 0],
      ["hold", -20, 20],
      ["expiry", 20, -20],
    ]);
  });

  it("honours a per-hold ttl_ms and leaves holds that are not due", async () => {
    const t = ledger();
    const userId = uid("user");
    const short = uid("hold");
    const long = uid("hold");
    await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 50, reason: "" });
    await t.client.holdCredits({ holdId: long, userId, amountCredits: 10, ttlMs: 60_000, routeKey: "" });
    await t.client.holdCredits({ holdId: short, userId, amountCredits: 10, ttlMs: 30, routeKey: "" });
    await t.waitForExpiry(short);
    expect((await t.client.getHold({ holdId: long })).hold!.state).toBe("held");
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 40, heldCredits: 10 });
  });
});

describe("hold expiry with several replicas", () => {
  it("three ledgers sweeping one store release each hold exactly once", async () => {
    const store = await openMemoryStore();
    const replicas = await Promise.all(
      [1, 2, 3].map(() => startTestLedger({ natsUrl: nats().url, store, holdTtlMs: 100, sweepIntervalMs: 10 })),
    );
    try {
      const userId = uid("user");
      await replicas[0]!.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000, reason: "" });
      const holdIds = Array.from({ length: 60 }, () => uid("hold"));
      await Promise.all(
        holdIds.map((holdId, i) => replicas[i % 3]!.client.holdCredits({ holdId, userId, amountCredits: 5, ttlMs: 0, routeKey: "" })),
      );

      const released = () => replicas.flatMap((r) => r.expired.map((h) => h.holdId));
      await waitFor(() => released().length >= holdIds.length, { timeoutMs: 10_000 });
      await Promise.all(replicas.map((r) => r.app.sweeper.sweep())); // one more pass each: nothing left to release
      expect(released().sort()).toEqual([...holdIds].sort()); // each once, none twice
      expect(await store.getWallet(userId)).toEqual({ userId, balanceCredits: 1_000, heldCredits: 0 });
      await assertLedgerConsistent(store);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });
});
