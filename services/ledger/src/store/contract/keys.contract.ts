// The LedgerStore contract, API keys: API keys: stored once per hash, found by hash, revoked once, limits replaced whole,
// the agents a key may act as kept as written.
// Run by store.contract.test.ts against every store.
import { T0, at, useContractStore, type StoreFactory } from "./support";

export function describeKeysContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, API keys: ${name}`, () => {
    const { store } = useContractStore(makeStore);

    describe("API keys", () => {
      const record = (keyId: string, keyHash: string, userId = "u1") => ({
        keyId,
        userId,
        keyHash,
        prefix: "aak_abcd",
        name: "n",
        createdAt: T0,
      });

      it("stores a key once per hash and finds it by hash", async () => {
        await expect(store().insertApiKey(record("key_1", "hash1"))).resolves.toMatchObject({
          status: "created",
          record: { keyId: "key_1" },
        });
        await expect(store().insertApiKey(record("key_2", "hash1"))).resolves.toMatchObject({
          status: "exists",
          record: { keyId: "key_1" },
        });
        await expect(store().findApiKeyByHash("hash1")).resolves.toMatchObject({ keyId: "key_1", userId: "u1", prefix: "aak_abcd" });
        await expect(store().findApiKeyByHash("other")).resolves.toBeNull();
      });

      it("lists by user and revokes once", async () => {
        await store().insertApiKey(record("key_1", "hash1", "u1"));
        await store().insertApiKey(record("key_2", "hash2", "u2"));
        expect((await store().listApiKeys()).map((k) => k.keyId).sort()).toEqual(["key_1", "key_2"]);
        expect((await store().listApiKeys("u2")).map((k) => k.keyId)).toEqual(["key_2"]);
        const revoked = await store().revokeApiKey("key_1", at(1_000));
        expect(revoked?.revokedAt).toEqual(at(1_000));
        expect((await store().revokeApiKey("key_1", at(2_000)))?.revokedAt).toEqual(at(1_000));
        expect((await store().findApiKeyByHash("hash1"))?.revokedAt).toEqual(at(1_000));
        await expect(store().revokeApiKey("key_nope", at(0))).resolves.toBeNull();
      });

      it("gets one key by its id, revoked or not, as its hash finds it", async () => {
        await store().insertApiKey(record("key_1", "hash1", "u1"));
        await store().insertApiKey(record("key_2", "hash2", "u2"));
        await store().revokeApiKey("key_2", at(1_000));
        expect(await store().getApiKey("key_1")).toEqual(await store().findApiKeyByHash("hash1"));
        await expect(store().getApiKey("key_2")).resolves.toMatchObject({ keyId: "key_2", userId: "u2", revokedAt: at(1_000) });
        await expect(store().getApiKey("key_nope")).resolves.toBeNull();
      });

      it("keeps a key's limits: set, replaced whole, cleared; read back by hash and in lists", async () => {
        await store().insertApiKey(record("key_1", "hash1"));
        await store().insertApiKey(record("key_2", "hash2"));
        expect(await store().findApiKeyByHash("hash1")).not.toHaveProperty("limits");

        const set = await store().setApiKeyLimits("key_1", { requestsPerSecond: 2, burst: 5, maxInFlight: 3 });
        expect(set).toMatchObject({ keyId: "key_1", limits: { requestsPerSecond: 2, burst: 5, maxInFlight: 3 } });
        await expect(store().findApiKeyByHash("hash1")).resolves.toMatchObject({
          limits: { requestsPerSecond: 2, burst: 5, maxInFlight: 3 },
        });
        // Replaced, not merged: the fields left out are gone (the gateway's defaults again).
        await store().setApiKeyLimits("key_1", { maxInFlight: 1 });
        expect((await store().findApiKeyByHash("hash1"))?.limits).toEqual({ maxInFlight: 1 });
        expect((await store().listApiKeys()).map((k) => [k.keyId, k.limits])).toEqual([
          ["key_1", { maxInFlight: 1 }],
          ["key_2", undefined],
        ]);

        const cleared = await store().setApiKeyLimits("key_1", undefined);
        expect(cleared).not.toHaveProperty("limits");
        expect(await store().findApiKeyByHash("hash1")).not.toHaveProperty("limits");
        await expect(store().setApiKeyLimits("key_nope", { burst: 1 })).resolves.toBeNull();
      });

      it("keeps the agent a key was issued for, or the agents it requires, read back by hash and in lists", async () => {
        await store().insertApiKey({ ...record("key_1", "hash1"), agentName: "alpha" });
        await store().insertApiKey({ ...record("key_2", "hash2"), agentNames: ["alpha", "beta"] });
        await store().insertApiKey(record("key_3", "hash3"));
        await expect(store().findApiKeyByHash("hash1")).resolves.toMatchObject({ keyId: "key_1", agentName: "alpha" });
        expect(await store().findApiKeyByHash("hash1")).not.toHaveProperty("agentNames");
        await expect(store().findApiKeyByHash("hash2")).resolves.toMatchObject({ keyId: "key_2", agentNames: ["alpha", "beta"] });
        expect(await store().findApiKeyByHash("hash2")).not.toHaveProperty("agentName");
        const plain = await store().findApiKeyByHash("hash3");
        expect(plain).not.toHaveProperty("agentName");
        expect(plain).not.toHaveProperty("agentNames");
        expect((await store().listApiKeys()).map((k) => [k.keyId, k.agentName, k.agentNames])).toEqual([
          ["key_1", "alpha", undefined],
          ["key_2", undefined, ["alpha", "beta"]],
          ["key_3", undefined, undefined],
        ]);
        // Limits set later leave the agents as they were.
        await expect(store().setApiKeyLimits("key_1", { burst: 2 })).resolves.toMatchObject({ agentName: "alpha", limits: { burst: 2 } });
      });
    });
  });
}
