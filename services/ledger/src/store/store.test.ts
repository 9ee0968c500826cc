// Runs the shared LedgerStore contract against the memory store always, and against MongoDB when
// MONGODB_URI points at a replica set (transactions need one):
//   MONGODB_URI=mongodb://127.0.0.1:27017/?replicaSet=rs0 npx jest src/store
// Each Mongo test uses its own database, dropped afterwards.
import { randomBase62 } from "@agentic/platform";
import { describeLedgerStore } from "./store.contract";
import { MemoryLedgerStore } from "./memory-store";
import { MongoLedgerStore } from "./mongo-store";

describeLedgerStore("memory", async () => ({ store: new MemoryLedgerStore() }));

const mongoUri = process.env.MONGODB_URI;
if (mongoUri) {
  describeLedgerStore("mongodb", async () => {
    const store = await MongoLedgerStore.connect({ uri: mongoUri, dbName: `ledger_test_${randomBase62(10)}` });
    return {
      store,
      dispose: async () => {
        await store.db.dropDatabase();
        await store.close();
      },
    };
  });
}

describe("MemoryLedgerStore", () => {
  it("hands out copies: changing a returned value never changes the store", async () => {
    const store = new MemoryLedgerStore();
    await store.grant({ grantId: "g", userId: "u1", amountCredits: 10, reason: "", now: new Date() });
    const wallet = await store.getWallet("u1");
    wallet.balanceCredits = 1_000_000;
    (await store.listJournal("u1"))[0]!.amountCredits = 1_000_000;
    await expect(store.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 10 });
    await expect(store.listJournal("u1")).resolves.toMatchObject([{ amountCredits: 10 }]);
  });

  it("refuses, writing nothing, a movement that would take a wallet below zero", async () => {
    const store = new MemoryLedgerStore();
    await store.grant({ grantId: "g", userId: "u1", amountCredits: 10, reason: "", now: new Date() });
    await store.hold({ holdId: "h", userId: "u1", amountCredits: 10, routeKey: "", expiresAt: new Date(), now: new Date() });
    // Corrupt the hold's amount behind the store's back: settling it would need more than is held.
    (store as unknown as { holds: Map<string, { amountCredits: number }> }).holds.get("h")!.amountCredits = 11;
    await expect(store.settleHold({ holdId: "h", userId: "u1", kind: "release", capturedCredits: 0, now: new Date() })).rejects.toThrow(/ledger invariant/);
    await expect(store.getWallet("u1")).resolves.toEqual({ userId: "u1", balanceCredits: 0, heldCredits: 10 });
    await expect(store.getHold("h")).resolves.toMatchObject({ state: "held" });
  });
});
