// The LedgerStore contract, wallets, holds and settlements: Wallets, grants, holds and their settlements: every balance equals its journal, never below zero, every hold settled once.
// Run by store.contract.test.ts against every store.
import { T0, at, MIN, usage, expectWalletMatchesJournal, useContractStore, type StoreFactory } from "./support";

export function describeMoneyContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, wallets, holds and settlements: ${name}`, () => {
    const { store, grant, hold, settle } = useContractStore(makeStore);

    describe("wallets and grants", () => {
      it("reads a missing wallet as zero without creating it", async () => {
        await expect(store().getWallet("nobody")).resolves.toEqual({ userId: "nobody", balanceCredits: 0, heldCredits: 0 });
        await expect(store().listWallets()).resolves.toEqual([]);
      });

      it("grants once per grant id; a replay adds nothing; another user or amount conflicts", async () => {
        const first = await grant("u1", 500, "g1");
        expect(first).toMatchObject({ status: "granted", wallet: { balanceCredits: 500 } });
        await expect(grant("u1", 500, "g1")).resolves.toMatchObject({ status: "replayed", wallet: { balanceCredits: 500 } });
        await expect(grant("u2", 500, "g1")).resolves.toMatchObject({ status: "conflict" });
        await expect(grant("u1", 400, "g1")).resolves.toMatchObject({ status: "conflict" });
        await grant("u1", 250, "g2");
        expect(await expectWalletMatchesJournal(store(), "u1")).toEqual({ userId: "u1", balanceCredits: 750, heldCredits: 0 });
        const journal = await store().listJournal("u1");
        expect(journal.map((e) => [e.kind, e.referenceId, e.amountCredits, e.heldDeltaCredits])).toEqual([
          ["grant", "g1", 500, 0],
          ["grant", "g2", 250, 0],
        ]);
      });

      it("applies concurrent grants with one id exactly once", async () => {
        const results = await Promise.all(Array.from({ length: 20 }, () => grant("u1", 100, "same")));
        expect(results.filter((r) => r.status === "granted")).toHaveLength(1);
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(100);
      });
    });

    describe("holds", () => {
      it("moves credits from balance to held, once per hold id", async () => {
        await grant("u1", 100);
        const created = await hold("h1", "u1", 30);
        expect(created).toMatchObject({
          status: "created",
          hold: { holdId: "h1", userId: "u1", amountCredits: 30, state: "held", capturedCredits: 0, routeKey: "r" },
          wallet: { balanceCredits: 70, heldCredits: 30 },
        });
        if (created.status !== "created") throw new Error("unreachable");
        expect(created.hold.createdAt).toEqual(T0);
        expect(created.hold.expiresAt).toEqual(at(2 * MIN));

        await expect(hold("h1", "u1", 30)).resolves.toMatchObject({ status: "replayed", wallet: { balanceCredits: 70, heldCredits: 30 } });
        await expect(hold("h1", "u1", 31)).resolves.toMatchObject({ status: "conflict" });
        await expect(hold("h1", "u2", 30)).resolves.toMatchObject({ status: "conflict" });
        await expect(store().getHold("h1")).resolves.toMatchObject({ state: "held", amountCredits: 30 });
        await expectWalletMatchesJournal(store(), "u1");
      });

      it("refuses a hold the balance does not cover and writes nothing", async () => {
        await grant("u1", 10);
        await expect(hold("h1", "u1", 11)).resolves.toMatchObject({ status: "insufficient", wallet: { balanceCredits: 10 } });
        await expect(hold("h2", "nobody", 1)).resolves.toMatchObject({ status: "insufficient", wallet: { balanceCredits: 0 } });
        expect((await store().listWallets()).map((w) => w.userId)).toEqual(["u1"]); // no wallet created for "nobody"
        await expect(store().getHold("h1")).resolves.toBeNull();
        await expect(store().listJournal("u1")).resolves.toHaveLength(1);
        // A refused id can be used again once the wallet covers it.
        await grant("u1", 1, "topup");
        await expect(hold("h1", "u1", 11)).resolves.toMatchObject({ status: "created", wallet: { balanceCredits: 0, heldCredits: 11 } });
        await expectWalletMatchesJournal(store(), "u1");
      });

      it("never lets concurrent holds take the balance below zero (200 holds, room for 50)", async () => {
        const price = 7;
        await grant("u1", 50 * price);
        const results = await Promise.all(Array.from({ length: 200 }, (_, i) => hold(`h${i}`, "u1", price)));
        expect(results.filter((r) => r.status === "created")).toHaveLength(50);
        expect(results.filter((r) => r.status === "insufficient")).toHaveLength(150);
        const wallet = await expectWalletMatchesJournal(store(), "u1");
        expect(wallet).toEqual({ userId: "u1", balanceCredits: 0, heldCredits: 50 * price });
      });

      it("creates a hold id only once under concurrent retries", async () => {
        await grant("u1", 100);
        const results = await Promise.all(Array.from({ length: 20 }, () => hold("h1", "u1", 10)));
        expect(results.filter((r) => r.status === "created")).toHaveLength(1);
        expect(results.filter((r) => r.status === "replayed")).toHaveLength(19);
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(90);
      });

      it("lists expired held holds, oldest first, up to a limit", async () => {
        await grant("u1", 100);
        await hold("late", "u1", 1, at(3 * MIN));
        await hold("early", "u1", 1, at(1 * MIN));
        await hold("mid", "u1", 1, at(2 * MIN));
        await hold("settled", "u1", 1, at(0));
        await settle({ holdId: "settled", kind: "release" });
        expect((await store().listExpiredHolds(at(2 * MIN), 10)).map((h) => h.holdId)).toEqual(["early", "mid"]);
        expect((await store().listExpiredHolds(at(5 * MIN), 2)).map((h) => h.holdId)).toEqual(["early", "mid"]);
        await expect(store().listExpiredHolds(at(0), 10)).resolves.toEqual([]);
      });
    });

    describe("settlements", () => {
      beforeEach(async () => {
        await grant("u1", 100);
        await hold("h1", "u1", 40);
      });

      it("capture charges the captured amount and returns the rest", async () => {
        const result = await settle({ holdId: "h1", kind: "capture", capturedCredits: 25, usage: usage() });
        expect(result).toMatchObject({
          status: "applied",
          hold: { state: "captured", capturedCredits: 25 },
          wallet: { balanceCredits: 75, heldCredits: 0 },
          usageRecorded: true,
        });
        if (result.status !== "applied") throw new Error("unreachable");
        expect(result.hold.settledAt).toEqual(at(1_000));
        const capture = (await store().listJournal("u1")).find((e) => e.kind === "capture");
        expect(capture).toMatchObject({ referenceId: "h1", amountCredits: 15, heldDeltaCredits: -40 });
        await expectWalletMatchesJournal(store(), "u1");
      });

      it("capture is clamped to 0..held amount", async () => {
        await expect(settle({ holdId: "h1", kind: "capture", capturedCredits: 1_000 })).resolves.toMatchObject({
          hold: { capturedCredits: 40 },
          wallet: { balanceCredits: 60, heldCredits: 0 },
        });
        await hold("h2", "u1", 10);
        await expect(settle({ holdId: "h2", kind: "capture", capturedCredits: -5 })).resolves.toMatchObject({
          hold: { capturedCredits: 0 },
          wallet: { balanceCredits: 60, heldCredits: 0 },
        });
        await expectWalletMatchesJournal(store(), "u1");
      });

      it("release and expiry return the whole hold", async () => {
        await expect(settle({ holdId: "h1", kind: "release", usage: usage({ status: "failed" }) })).resolves.toMatchObject({
          status: "applied",
          hold: { state: "released", capturedCredits: 0 },
          wallet: { balanceCredits: 100, heldCredits: 0 },
        });
        await hold("h2", "u1", 10);
        await expect(settle({ holdId: "h2", kind: "expiry" })).resolves.toMatchObject({
          status: "applied",
          hold: { state: "expired" },
          usageRecorded: false,
          wallet: { balanceCredits: 100, heldCredits: 0 },
        });
        expect((await store().listJournal("u1")).map((e) => e.kind)).toEqual(["grant", "hold", "release", "hold", "expiry"]);
        await expectWalletMatchesJournal(store(), "u1");
      });

      it("settles a hold at most once; the first settlement wins", async () => {
        await settle({ holdId: "h1", kind: "capture", capturedCredits: 10, usage: usage() });
        await expect(settle({ holdId: "h1", kind: "capture", capturedCredits: 10, usage: usage() })).resolves.toMatchObject({
          status: "already_settled",
          hold: { state: "captured" },
          usageRecorded: false,
        });
        await expect(settle({ holdId: "h1", kind: "release" })).resolves.toMatchObject({ status: "already_settled" });
        await expect(settle({ holdId: "h1", kind: "expiry" })).resolves.toMatchObject({ status: "already_settled" });
        expect((await store().listJournal("u1")).filter((e) => e.referenceId === "h1").map((e) => e.kind)).toEqual(["hold", "capture"]);
        await expect(store().listUsage("u1", 100)).resolves.toHaveLength(1);
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(90);
      });

      it("applies one of many concurrent settlements of the same hold", async () => {
        const results = await Promise.all([
          ...Array.from({ length: 10 }, () => settle({ holdId: "h1", kind: "capture", capturedCredits: 40, usage: usage() })),
          ...Array.from({ length: 10 }, () => settle({ holdId: "h1", kind: "expiry" })),
        ]);
        expect(results.filter((r) => r.status === "applied")).toHaveLength(1);
        expect((await store().listJournal("u1")).filter((e) => e.referenceId === "h1")).toHaveLength(2);
        await expectWalletMatchesJournal(store(), "u1");
        expect((await store().listUsage("u1", 100)).length).toBeLessThanOrEqual(1);
      });

      it("a capture after expiry charges nothing but records its usage once, with 0 charged", async () => {
        await settle({ holdId: "h1", kind: "expiry" });
        const late = await settle({ holdId: "h1", kind: "capture", capturedCredits: 40, usage: usage({ usageId: "use_late" }) });
        expect(late).toMatchObject({ status: "already_settled", hold: { state: "expired", capturedCredits: 0 }, usageRecorded: true });
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(100);
        await expect(store().listUsage("u1", 10)).resolves.toMatchObject([{ usageId: "use_late", creditsCharged: 0, holdId: "h1" }]);
      });

      it("ignores a settlement for an unknown hold or of another user", async () => {
        await expect(settle({ holdId: "nope", kind: "capture", capturedCredits: 1, usage: usage() })).resolves.toEqual({
          status: "unknown_hold",
        });
        await expect(settle({ holdId: "h1", userId: "u2", kind: "capture", capturedCredits: 1, usage: usage() })).resolves.toMatchObject({
          status: "user_mismatch",
        });
        await expect(store().getHold("h1")).resolves.toMatchObject({ state: "held" });
        await expect(store().listUsage("u1", 10)).resolves.toEqual([]);
        await expect(store().listUsage("u2", 10)).resolves.toEqual([]);
        await expectWalletMatchesJournal(store(), "u1");
      });
    });
  });
}
