// The LedgerStore contract, top-ups (run by store.contract.test.ts against every store):
// one record per payment, pending → credited | failed exactly once, the credit written with the state
// change, and a pending attempt taken over only once it is stale.
import { randomBase62 } from "@agentic/platform";
import { TOP_UP_REASON, topUpIdOf, type TopUpRecord } from "../../domain/top-up";
import type { LedgerStore } from "../../domain/ports";
import type { StoreFactory } from "./support";

const T0 = new Date("2030-01-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

function record(overrides: Partial<TopUpRecord> = {}): TopUpRecord {
  const nonce = `0x${randomBase62(16).padEnd(64, "0")}`;
  const identity = {
    network: "eip155:84532",
    asset: "0x036cbd53842c5426634e7929541ec2318f3dcf7e",
    payer: "0x00000000000000000000000000000000000000aa",
    nonce,
  };
  return {
    topUpId: topUpIdOf(identity),
    userId: "u1",
    ...identity,
    payTo: "0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5",
    amountAtomic: "250000",
    amountCredits: 250,
    state: "pending",
    createdAt: T0,
    attemptedAt: T0,
    attempts: 1,
    requirements: "{}",
    payload: "{}",
    ...overrides,
  };
}

export function describeTopUpsContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, top-ups: ${name}`, () => {
    let store: LedgerStore;
    let dispose: (() => Promise<void>) | undefined;
    beforeEach(async () => {
      ({ store, dispose } = await makeStore());
    });
    afterEach(async () => {
      await dispose?.();
    });

    it("keeps one record per payment: a second start with the same id changes nothing", async () => {
      const r = record();
      await expect(store.startTopUp({ record: r, staleBefore: at(-10_000), now: T0 })).resolves.toMatchObject({
        status: "started",
        record: { state: "pending", attempts: 1 },
      });
      const again = await store.startTopUp({ record: { ...r, userId: "u2", amountCredits: 1 }, staleBefore: at(-10_000), now: at(1) });
      expect(again).toMatchObject({ status: "exists", record: { userId: "u1", amountCredits: 250, attempts: 1 } });
      await expect(store.getTopUp(r.topUpId)).resolves.toMatchObject({ userId: "u1", state: "pending" });
    });

    it("credits once, with a grant entry (reason top_up) written with the state change", async () => {
      const r = record();
      await store.startTopUp({ record: r, staleBefore: at(-10_000), now: T0 });
      const outcome = { state: "credited" as const, transaction: "0xabc", settlement: '{"success":true}' };
      const first = await store.finishTopUp({ topUpId: r.topUpId, outcome, now: at(5) });
      expect(first).toMatchObject({
        status: "finished",
        record: { state: "credited", transaction: "0xabc" },
        wallet: { balanceCredits: 250 },
      });
      await expect(store.finishTopUp({ topUpId: r.topUpId, outcome, now: at(6) })).resolves.toMatchObject({
        status: "already",
        record: { state: "credited" },
      });
      await expect(
        store.finishTopUp({ topUpId: r.topUpId, outcome: { state: "failed", reason: "late" }, now: at(7) }),
      ).resolves.toMatchObject({ status: "already" });
      expect(await store.getWallet("u1")).toMatchObject({ balanceCredits: 250, heldCredits: 0 });
      expect(await store.listJournal("u1")).toEqual([
        expect.objectContaining({ kind: "grant", referenceId: r.topUpId, amountCredits: 250 }),
      ]);
      // The money history shows it once, as a top-up.
      expect(await store.listUsage("u1", 10)).toEqual([
        expect.objectContaining({ kind: "top_up", amountCredits: 250, reference: r.topUpId }),
      ]);
      // A grant under the same id is the same money: never a second credit.
      const grant = await store.grant({ grantId: r.topUpId, userId: "u1", amountCredits: 250, reason: TOP_UP_REASON, now: at(8) });
      expect(grant.status).not.toBe("granted");
      expect(await store.getWallet("u1")).toMatchObject({ balanceCredits: 250 });
    });

    it("credits once under concurrent finishes", async () => {
      const r = record();
      await store.startTopUp({ record: r, staleBefore: at(-10_000), now: T0 });
      const outcome = { state: "credited" as const, settlement: "{}" };
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.finishTopUp({ topUpId: r.topUpId, outcome, now: at(i) })),
      );
      expect(results.filter((x) => x.status === "finished")).toHaveLength(1);
      expect(await store.getWallet("u1")).toMatchObject({ balanceCredits: 250 });
      expect((await store.listUsage("u1", 10)).filter((i) => i.kind === "top_up")).toHaveLength(1);
    });

    it("ends a failed payment with no credit and no journal entry", async () => {
      const r = record();
      await store.startTopUp({ record: r, staleBefore: at(-10_000), now: T0 });
      const failed = await store.finishTopUp({
        topUpId: r.topUpId,
        outcome: { state: "failed", reason: "insufficient_funds", settlement: '{"success":false}' },
        now: at(5),
      });
      expect(failed).toMatchObject({ status: "finished", record: { state: "failed", failureReason: "insufficient_funds" } });
      await expect(
        store.finishTopUp({ topUpId: r.topUpId, outcome: { state: "credited", settlement: "{}" }, now: at(6) }),
      ).resolves.toMatchObject({ status: "already" });
      expect(await store.getWallet("u1")).toMatchObject({ balanceCredits: 0 });
      expect(await store.listJournal("u1")).toEqual([]);
    });

    it("takes over a pending attempt only once it is stale, and lists stale pending ones oldest first", async () => {
      const older = record();
      const newer = record({ createdAt: at(100), attemptedAt: at(100) });
      await store.startTopUp({ record: older, staleBefore: at(-10_000), now: T0 });
      await store.startTopUp({ record: newer, staleBefore: at(-10_000), now: at(100) });
      // Not stale yet: the first attempt may still be running.
      await expect(store.startTopUp({ record: older, staleBefore: at(-1), now: at(50) })).resolves.toMatchObject({
        status: "exists",
        record: { attempts: 1 },
      });
      expect((await store.listStalePendingTopUps(at(100), 10)).map((x) => x.topUpId)).toEqual([older.topUpId, newer.topUpId]);
      expect((await store.listStalePendingTopUps(at(99), 10)).map((x) => x.topUpId)).toEqual([older.topUpId]);
      const taken = await store.startTopUp({ record: older, staleBefore: at(0), now: at(200) });
      expect(taken).toMatchObject({ status: "retry", record: { attempts: 2, attemptedAt: at(200) } });
      // Another user presenting the same payment never takes it over.
      await expect(store.startTopUp({ record: { ...newer, userId: "u2" }, staleBefore: at(1_000), now: at(1_000) })).resolves.toMatchObject(
        {
          status: "exists",
          record: { userId: "u1" },
        },
      );
      await store.finishTopUp({ topUpId: older.topUpId, outcome: { state: "credited", settlement: "{}" }, now: at(300) });
      expect((await store.listStalePendingTopUps(at(1_000), 10)).map((x) => x.topUpId)).toEqual([newer.topUpId]);
    });
  });
}
