// API keys over gRPC: create, authenticate, revoke; bootstrap from AGENTIC_API_KEYS; only hashes stored.
import { createHash } from "node:crypto";
import { status } from "@grpc/grpc-js";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteLedgerStore } from "../../src/store/sqlite/sqlite-store";
import { startTestLedger, testApiKey, openMemoryStore } from "../harness";
import { remoteError, uid, useNatsServer, useTestLedger } from "../support";

const nats = useNatsServer();
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("API key lifecycle", () => {
  const ledger = useTestLedger(nats);

  it("create → authenticate → revoke → INVALID_API_KEY", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const created = await client.createApiKey({ userId, name: "laptop" });
    expect(created.apiKey).toMatch(/^aak_[0-9A-Za-z]{32}$/);
    expect(created.key).toMatchObject({ userId, name: "laptop", prefix: created.apiKey.slice(0, 8) });
    expect(created.key!.keyId).toMatch(/^key_/);
    expect(created.key!.revokedAt).toBeUndefined();

    await expect(client.authenticateApiKey({ apiKey: created.apiKey })).resolves.toEqual({ userId, keyId: created.key!.keyId });

    const revoked = await client.revokeApiKey({ keyId: created.key!.keyId });
    expect(revoked.key!.revokedAt).toBeInstanceOf(Date);
    const again = await client.revokeApiKey({ keyId: created.key!.keyId }); // idempotent
    expect(again.key!.revokedAt).toEqual(revoked.key!.revokedAt);

    const err = await remoteError(client.authenticateApiKey({ apiKey: created.apiKey }));
    expect(err).toMatchObject({ grpcCode: status.UNAUTHENTICATED, code: "INVALID_API_KEY" });
    expect(err.hint).toMatch(/Bearer aak_/);
  });

  it("answers INVALID_API_KEY alike for malformed, unknown and empty keys", async () => {
    const { client } = ledger();
    for (const apiKey of ["", "sk-abc", "aak_short", `aak_${"!".repeat(32)}`, testApiKey(), `Bearer ${testApiKey()}`]) {
      await expect(remoteError(client.authenticateApiKey({ apiKey }))).resolves.toMatchObject({
        grpcCode: status.UNAUTHENTICATED,
        code: "INVALID_API_KEY",
      });
    }
  });

  it("lists keys by user without ever returning a key or its hash", async () => {
    const { client } = ledger();
    const alice = uid("alice");
    const bob = uid("bob");
    const a1 = await client.createApiKey({ userId: alice, name: "one" });
    await client.createApiKey({ userId: alice, name: "two" });
    await client.createApiKey({ userId: bob, name: "" });
    const listed = await client.listApiKeys({ userId: alice });
    expect(listed.keys.map((k) => k.name)).toEqual(["one", "two"]);
    expect(JSON.stringify(listed)).not.toContain(a1.apiKey);
    expect(JSON.stringify(listed)).not.toContain(sha256(a1.apiKey));
    expect((await client.listApiKeys({ userId: "" })).keys.length).toBeGreaterThanOrEqual(3);
  });

  it("rejects bad requests clearly", async () => {
    const { client } = ledger();
    await expect(remoteError(client.createApiKey({ userId: "", name: "" }))).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "user_id" },
    });
    await expect(remoteError(client.createApiKey({ userId: "has space", name: "" }))).resolves.toMatchObject({
      details: { field: "user_id" },
    });
    await expect(remoteError(client.revokeApiKey({ keyId: "key_nope" }))).resolves.toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: "API_KEY_NOT_FOUND",
    });
  });

  it("sets a key's limits, which AuthenticateApiKey and ListApiKeys return, and clears them with empty limits", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const created = await client.createApiKey({ userId, name: "" });
    const keyId = created.key!.keyId;
    expect(created.key!.limits).toBeUndefined();

    const set = await client.setApiKeyLimits({ keyId, limits: { requestsPerSecond: 2, burst: 4 } });
    expect(set.key).toMatchObject({ keyId, userId, limits: { requestsPerSecond: 2, burst: 4 } });
    expect(set.key!.limits!.maxInFlight).toBeUndefined();
    await expect(client.authenticateApiKey({ apiKey: created.apiKey })).resolves.toEqual({
      userId,
      keyId,
      limits: { requestsPerSecond: 2, burst: 4 },
    });
    expect((await client.listApiKeys({ userId })).keys).toEqual([
      expect.objectContaining({ keyId, limits: { requestsPerSecond: 2, burst: 4 } }),
    ]);

    // Empty limits, or none at all, clear them: the gateway's defaults apply again.
    for (const limits of [{}, undefined]) {
      await client.setApiKeyLimits({ keyId, limits: { maxInFlight: 1 } });
      expect((await client.setApiKeyLimits({ keyId, limits })).key!.limits).toBeUndefined();
      expect((await client.authenticateApiKey({ apiKey: created.apiKey })).limits).toBeUndefined();
    }
  });

  it("refuses limits out of range, a burst below the rate, and unknown keys", async () => {
    const { client } = ledger();
    const { key } = await client.createApiKey({ userId: uid("user"), name: "" });
    const refused = (limits: object) => remoteError(client.setApiKeyLimits({ keyId: key!.keyId, limits }));
    await expect(refused({ requestsPerSecond: 0 })).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "limits.requests_per_second" },
    });
    await expect(refused({ burst: 100_001 })).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "limits.burst" },
    });
    await expect(refused({ maxInFlight: 10_001 })).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "limits.max_in_flight" },
    });
    await expect(refused({ requestsPerSecond: 10, burst: 5 })).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "limits.burst" },
    });
    // A refused call changes nothing.
    expect((await client.listApiKeys({ userId: key!.userId })).keys[0]!.limits).toBeUndefined();
    await expect(remoteError(client.setApiKeyLimits({ keyId: "key_nope", limits: { burst: 1 } }))).resolves.toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: "API_KEY_NOT_FOUND",
    });
  });
});

describe("AGENTIC_API_KEYS bootstrap", () => {
  it("registers every key at start, idempotently across restarts on one store", async () => {
    const store = await openMemoryStore();
    const k1 = testApiKey();
    const k2 = testApiKey();
    const apiKeys = ` ${k1}:dev-user , ${k2}:ci:runner `; // spaces trimmed; a user id may contain ':'
    const first = await startTestLedger({ natsUrl: nats().url, apiKeys, store });
    let ids: string[];
    try {
      const a = await first.client.authenticateApiKey({ apiKey: k1 });
      const b = await first.client.authenticateApiKey({ apiKey: k2 });
      expect([a.userId, b.userId]).toEqual(["dev-user", "ci:runner"]);
      ids = [a.keyId, b.keyId];
    } finally {
      await first.stop();
    }
    const second = await startTestLedger({ natsUrl: nats().url, apiKeys: `${k1}:dev-user,${k1}:dev-user,${k2}:ci:runner`, store });
    try {
      expect((await second.client.authenticateApiKey({ apiKey: k1 })).keyId).toBe(ids[0]);
      expect((await second.client.authenticateApiKey({ apiKey: k2 })).keyId).toBe(ids[1]);
      expect((await second.client.listApiKeys({ userId: "" })).keys).toHaveLength(2);
    } finally {
      await second.stop();
    }
  });

  it("refuses to start with a malformed key, or a key already registered to another user", async () => {
    await expect(startTestLedger({ natsUrl: nats().url, apiKeys: "aak_tooshort:dev" })).rejects.toThrow(/aak_ \+ 32\.\.128 base62/);
    await expect(startTestLedger({ natsUrl: nats().url, apiKeys: `${testApiKey()}` })).rejects.toThrow(/key:userId/);
    const key = testApiKey();
    await expect(startTestLedger({ natsUrl: nats().url, apiKeys: `${key}:alice,${key}:bob` })).rejects.toThrow(/another user/);
  });

  it("a revoked bootstrap key stays revoked after a restart", async () => {
    const store = await openMemoryStore();
    const key = testApiKey();
    const first = await startTestLedger({ natsUrl: nats().url, apiKeys: `${key}:dev`, store });
    const { keyId } = await first.client.authenticateApiKey({ apiKey: key });
    await first.client.revokeApiKey({ keyId });
    await first.stop();
    const second = await startTestLedger({ natsUrl: nats().url, apiKeys: `${key}:dev`, store });
    try {
      await expect(remoteError(second.client.authenticateApiKey({ apiKey: key }))).resolves.toMatchObject({ code: "INVALID_API_KEY" });
    } finally {
      await second.stop();
    }
  });
});

describe("key storage", () => {
  it("stores only the SHA-256 of a key and its 8-character prefix, never the key", async () => {
    // A SQLite file: every byte the store wrote (the database and its WAL) is read back below.
    const dir = mkdtempSync(join(tmpdir(), "ledger-keys-"));
    const store = await SqliteLedgerStore.open({ path: join(dir, "ledger.sqlite") });
    const bootKey = testApiKey();
    const t = await startTestLedger({ natsUrl: nats().url, apiKeys: `${bootKey}:boot-user`, store });
    try {
      const { apiKey } = await t.client.createApiKey({ userId: "u1", name: "" });
      const stored = readdirSync(dir)
        .map((file) => readFileSync(join(dir, file)).toString("latin1"))
        .join("\n");
      for (const key of [apiKey, bootKey]) {
        expect(stored).not.toContain(key);
        expect(stored).not.toContain(key.slice(8)); // not even the secret part
        expect(stored).toContain(sha256(key));
        expect(stored).toContain(key.slice(0, 8));
      }
    } finally {
      await t.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
