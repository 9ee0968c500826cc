// Runs the shared LedgerStore contract against the memory and SQLite stores always, and against
// MongoDB when MONGODB_URI points at a replica set (transactions need one):
//   MONGODB_URI=mongodb://127.0.0.1:27017/?replicaSet=rs0 npx jest src/store
// Each SQLite test uses a fresh file in its own temp dir, each Mongo test its own database; both
// are removed afterwards. Then what only one store can show: copies, the last guards, durability.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { randomBase62 } from "@agentic/platform";
import { findLedgerViolations } from "../../test/consistency";
import { describeLedgerStore } from "./store.contract";
import { MemoryLedgerStore } from "./memory-store";
import { MongoLedgerStore } from "./mongo-store";
import { SCHEMA_VERSION, SqliteLedgerStore } from "./sqlite-store";

const tempDir = () => mkdtempSync(join(tmpdir(), "ledger-sqlite-"));

describeLedgerStore("memory", async () => ({ store: new MemoryLedgerStore() }));

describeLedgerStore("sqlite", async () => {
  const dir = tempDir();
  const store = await SqliteLedgerStore.open({ path: join(dir, "ledger.sqlite") });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

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

describe("SqliteLedgerStore", () => {
  const LEDGER_DIR = join(__dirname, "../..");
  const T0 = new Date("2030-01-01T00:00:00.000Z");
  let dir: string;
  let path: string;
  const open = () => SqliteLedgerStore.open({ path });
  /** A second, raw connection to the same file: what another process (or an operator) would see. */
  const raw = () => new DatabaseSync(path);

  beforeEach(() => {
    dir = tempDir();
    path = join(dir, "nested", "ledger.sqlite"); // the directories do not exist yet
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps everything, and its store id, across close and reopen of the same file", async () => {
    const store = await open();
    await store.grant({ grantId: "g1", userId: "u1", amountCredits: 100, reason: "welcome", now: T0 });
    await store.hold({ holdId: "h1", userId: "u1", amountCredits: 30, routeKey: "r", expiresAt: new Date(T0.getTime() + 60_000), now: T0 });
    await store.hold({ holdId: "h2", userId: "u1", amountCredits: 5, routeKey: "r", expiresAt: new Date(T0.getTime() + 60_000), now: T0 });
    const usage = { usageId: "use_1", createdAt: T0, productKey: "email", capabilityKey: "email.send", routeKey: "r", provider: "resend", networkKey: "direct", status: "succeeded", durationMs: 12, traceId: "t" };
    await store.settleHold({ holdId: "h1", userId: "u1", kind: "capture", capturedCredits: 20, usage, now: T0 });
    await store.insertApiKey({ keyId: "key_1", userId: "u1", keyHash: "hash1", prefix: "aak_abcd", name: "laptop", createdAt: T0 });
    await store.revokeApiKey("key_1", T0);
    await store.claimIdempotencyKey({ userId: "u1", key: "k1", requestHash: "hashA", executionId: "exe_1", capabilityKey: "email.send", leaseMs: 60_000, retentionMs: 86_400_000, now: T0 });
    await store.completeIdempotencyKey({ userId: "u1", key: "k1", result: { httpStatus: 200, body: { ok: true } }, now: T0 });
    const read = async (s: SqliteLedgerStore) => ({
      storeId: await s.storeId(),
      wallets: await s.listWallets(),
      journal: await s.listJournal("u1"),
      holds: [await s.getHold("h1"), await s.getHold("h2")],
      usage: await s.listUsage("u1", 10),
      keys: await s.listApiKeys(),
      execution: await s.getExecution("exe_1"),
    });
    const before = await read(store);
    await store.close();

    const reopened = await open();
    const after = await read(reopened);
    expect(after).toEqual(before);
    expect(after.wallets).toEqual([{ userId: "u1", balanceCredits: 75, heldCredits: 5 }]);
    expect(after.execution).toMatchObject({ state: "succeeded", result: { httpStatus: 200, body: { ok: true } } });
    await reopened.close();

    // Another file is another store.
    const other = await SqliteLedgerStore.open({ path: join(dir, "other.sqlite") });
    expect(await other.storeId()).not.toBe(before.storeId);
    await other.close();
  });

  it("opens an existing file without touching its schema, in WAL mode, and refuses a newer schema", async () => {
    await (await open()).close();
    await (await open()).close();
    const db = raw();
    try {
      expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
      db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 1));
    } finally {
      db.close();
    }
    await expect(open()).rejects.toThrow(/newer than this ledger/);
  });

  it("migrates a schema 1 file to schema 2, keeping its data and adding the settlement bookings", async () => {
    const v1 = await open();
    await v1.grant({ grantId: "g1", userId: "u1", amountCredits: 100, reason: "", now: T0 });
    await v1.hold({ holdId: "h1", userId: "u1", amountCredits: 30, routeKey: "r", expiresAt: new Date(T0.getTime() + 60_000), now: T0 });
    await v1.close();
    // Schemas 2 and 3 only added objects and columns: without them (and at version 1) the file is what schema 1 wrote.
    const db = raw();
    db.exec(`DROP TABLE platform_losses; DROP TABLE payments; DROP TABLE resources; DROP INDEX holds_captured_by_settled_at;
             ALTER TABLE usage DROP COLUMN input_tokens; ALTER TABLE usage DROP COLUMN output_tokens;
             UPDATE meta SET value = '1' WHERE key = 'schema_version';`);
    db.close();
    const store = await open();
    await expect(store.getWallet("u1")).resolves.toEqual({ userId: "u1", balanceCredits: 70, heldCredits: 30 });
    const payment = { rail: "x402" as const, network: "eip155:84532", asset: "0xa", amountAtomic: "5", amountMicroUsd: 5, payTo: "0xb", payer: "0xc", settlement: "settled" as const };
    await store.settleHold({ holdId: "h1", userId: "u1", kind: "release", capturedCredits: 0, payments: [payment], now: T0 });
    await expect(store.listPlatformLosses({ from: T0, to: new Date(T0.getTime() + 1) })).resolves.toMatchObject([{ paymentId: "h1/0", reason: "paid_attempt_released" }]);
    await store.close();
    const check = raw();
    try {
      expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    } finally {
      check.close();
    }
  });

  it("migrates a schema 2 file to schema 3, keeping its usage items and adding their token counts", async () => {
    const draft = { createdAt: T0, productKey: "models.chat-complete", capabilityKey: "models.chat.complete", routeKey: "r", provider: "openai", networkKey: "direct", status: "succeeded", durationMs: 5, traceId: "" };
    const v2 = await open();
    await v2.grant({ grantId: "g1", userId: "u1", amountCredits: 100, reason: "", now: T0 });
    for (const holdId of ["h1", "h2"]) await v2.hold({ holdId, userId: "u1", amountCredits: 13, routeKey: "r", expiresAt: new Date(T0.getTime() + 60_000), now: T0 });
    await v2.settleHold({ holdId: "h1", userId: "u1", kind: "capture", capturedCredits: 13, usage: { ...draft, usageId: "use_1" }, now: T0 });
    await v2.close();
    const db = raw();
    db.exec(`ALTER TABLE usage DROP COLUMN input_tokens; ALTER TABLE usage DROP COLUMN output_tokens; UPDATE meta SET value = '2' WHERE key = 'schema_version';`);
    db.close();
    const store = await open();
    await store.settleHold({ holdId: "h2", userId: "u1", kind: "capture", capturedCredits: 5, usage: { ...draft, usageId: "use_2", createdAt: new Date(T0.getTime() + 1), inputTokens: 1000, outputTokens: 100 }, now: T0 });
    const [second, first] = await store.listUsage("u1", 10);
    expect(second).toMatchObject({ usageId: "use_2", creditsCharged: 5, inputTokens: 1000, outputTokens: 100 });
    expect(first).toMatchObject({ usageId: "use_1", creditsCharged: 13 });
    expect(first).not.toHaveProperty("inputTokens");
    await store.close();
  });

  it("hands out fresh objects: changing a returned value never changes the store", async () => {
    const store = await open();
    await store.grant({ grantId: "g", userId: "u1", amountCredits: 10, reason: "", now: T0 });
    const wallet = await store.getWallet("u1");
    wallet.balanceCredits = 1_000_000;
    const [entry] = await store.listJournal("u1");
    expect(entry!.createdAt).toBeInstanceOf(Date);
    entry!.createdAt.setTime(0);
    await expect(store.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 10 });
    await expect(store.listJournal("u1")).resolves.toMatchObject([{ amountCredits: 10, createdAt: T0 }]);
    await store.close();
  });

  it("refuses a movement that would take a wallet below zero and rolls back everything it wrote", async () => {
    const store = await open();
    await store.grant({ grantId: "g", userId: "u1", amountCredits: 10, reason: "", now: T0 });
    await store.hold({ holdId: "h", userId: "u1", amountCredits: 10, routeKey: "", expiresAt: T0, now: T0 });
    // Corrupt the hold's amount behind the store's back: settling it would need more than is held.
    const db = raw();
    db.prepare("UPDATE holds SET amount_credits = 11 WHERE hold_id = 'h'").run();
    db.close();
    // The settlement marks the hold released before it moves the wallet: the rollback must undo that.
    await expect(store.settleHold({ holdId: "h", userId: "u1", kind: "release", capturedCredits: 0, now: T0 })).rejects.toThrow(/ledger invariant/);
    await expect(store.getWallet("u1")).resolves.toEqual({ userId: "u1", balanceCredits: 0, heldCredits: 10 });
    await expect(store.getHold("h")).resolves.toMatchObject({ state: "held" });
    await expect(store.listJournal("u1")).resolves.toHaveLength(2);
    // The store still works after the rollback.
    await expect(store.grant({ grantId: "g2", userId: "u1", amountCredits: 1, reason: "", now: T0 })).resolves.toMatchObject({ status: "granted" });
    await store.close();
  });

  it("has CHECK constraints as the last guard: no negative balance or held credits, no unknown hold state", async () => {
    const store = await open();
    await store.grant({ grantId: "g", userId: "u1", amountCredits: 10, reason: "", now: T0 });
    await store.hold({ holdId: "h", userId: "u1", amountCredits: 4, routeKey: "", expiresAt: T0, now: T0 });
    await store.close();
    const db = raw();
    try {
      expect(() => db.prepare("UPDATE wallets SET balance_credits = -1").run()).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare("UPDATE wallets SET held_credits = -1").run()).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare("UPDATE holds SET state = 'refunded'").run()).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });

  it("loses no committed write when the writing process is killed with SIGKILL mid-stream", async () => {
    // The child prints a line only after its write committed; it is killed while still writing.
    const child = spawn(process.execPath, ["--require", join(LEDGER_DIR, "test/register-ts.cjs"), join(LEDGER_DIR, "test/sqlite-writer.ts"), path], {
      cwd: LEDGER_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const committed: string[] = [];
    let partial = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop()!; // a line cut by the kill was not reported
      committed.push(...lines);
      if (committed.length >= 300 && !child.killed) child.kill("SIGKILL");
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once("close", (_code, sig) => resolve(sig)));
    expect({ signal, stderr }).toEqual({ signal: "SIGKILL", stderr: "" });
    expect(committed.length).toBeGreaterThanOrEqual(300);

    const db = raw();
    expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    db.close();
    const store = await open();
    try {
      await expect(findLedgerViolations(store)).resolves.toEqual([]);
      const users = (await store.listWallets()).map((w) => w.userId);
      const journal = (await Promise.all(users.map((u) => store.listJournal(u)))).flat();
      for (const line of committed) {
        const [what, id] = line.split(" ") as [string, string];
        if (what === "grant") expect(journal.some((e) => e.kind === "grant" && e.referenceId === id)).toBe(true);
        else if (what === "hold") expect(await store.getHold(id)).not.toBeNull();
        else expect(await store.getHold(id)).toMatchObject({ state: what === "capture" ? "captured" : "released" });
      }
      // One journal entry per write: every reported one, plus at most the write in flight at the kill.
      expect(journal.length).toBeGreaterThanOrEqual(committed.length);
      expect(journal.length).toBeLessThanOrEqual(committed.length + 1);
    } finally {
      await store.close();
    }
  });
});
