// What only the SQLite store can show (the contract in ../contract/ runs on it too): durability across
// close, reopen and SIGKILL, group commit, migrations, query plans, fresh objects, the last guards
// (CHECK constraints, rollback), and a store in memory.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { findLedgerViolations } from "../../../test/consistency";
import { applyMigration, IN_MEMORY, SCHEMA_VERSION, SqliteLedgerStore, usageQuerySql } from "./sqlite-store";
import { usagePosition } from "../../domain/rules";

const tempDir = () => mkdtempSync(join(tmpdir(), "ledger-sqlite-"));

describe("SqliteLedgerStore", () => {
  const LEDGER_DIR = join(__dirname, "../../..");
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
    const usage = {
      usageId: "use_1",
      createdAt: T0,
      productKey: "email",
      capabilityKey: "email.send",
      routeKey: "r",
      provider: "resend",
      networkKey: "direct",
      status: "succeeded",
      durationMs: 12,
      traceId: "t",
    };
    await store.settleHold({ holdId: "h1", userId: "u1", kind: "capture", capturedCredits: 20, usage, now: T0 });
    await store.insertApiKey({ keyId: "key_1", userId: "u1", keyHash: "hash1", prefix: "aak_abcd", name: "laptop", createdAt: T0 });
    await store.revokeApiKey("key_1", T0);
    await store.claimIdempotencyKey({
      userId: "u1",
      key: "k1",
      requestHash: "hashA",
      executionId: "exe_1",
      capabilityKey: "email.send",
      leaseMs: 60_000,
      retentionMs: 86_400_000,
      now: T0,
    });
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

  it("commits the operations of one turn together: each is durable when answered, a failing one undoes only itself", async () => {
    const store = await open();
    try {
      await store.grant({ grantId: "g1", userId: "u1", amountCredits: 100, reason: "", now: T0 });
      const expiresAt = new Date(T0.getTime() + 60_000);
      const hold = (holdId: string, amountCredits: number) =>
        store.hold({ holdId, userId: "u1", amountCredits, routeKey: "r", expiresAt, now: T0 });
      // Started in the same turn: one group. The negative amount breaks a CHECK constraint mid-group.
      const answers = await Promise.allSettled([hold("h1", 10), hold("h2", -5), hold("h3", 20), hold("h4", 500)]);
      expect(answers.map((a) => (a.status === "fulfilled" ? a.value.status : "rejected"))).toEqual([
        "created",
        "rejected",
        "created",
        "insufficient",
      ]);
      // What another connection sees once they were answered: committed, and only the operations that succeeded.
      const db = raw();
      try {
        expect(db.prepare("SELECT hold_id FROM holds ORDER BY hold_id").all()).toEqual([{ hold_id: "h1" }, { hold_id: "h3" }]);
        expect(db.prepare("SELECT balance_credits, held_credits FROM wallets").get()).toEqual({ balance_credits: 70, held_credits: 30 });
      } finally {
        db.close();
      }
      // Each answer waited for the COMMIT: when one resolves, another connection already sees it.
      const seen = await hold("h5", 1).then(() => {
        const db2 = raw();
        try {
          return db2.prepare("SELECT count(*) AS n FROM holds WHERE hold_id = 'h5'").get();
        } finally {
          db2.close();
        }
      });
      expect(seen).toEqual({ n: 1 });
      // Closing commits a group still open.
      const last = hold("h6", 1);
      await store.close();
      await expect(last).resolves.toMatchObject({ status: "created" });
    } finally {
      await store.close();
    }
    const reopened = await open();
    await expect(reopened.getWallet("u1")).resolves.toEqual({ userId: "u1", balanceCredits: 68, heldCredits: 32 });
    await reopened.close();
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

  /**
   * A file as a ledger of schema `version` left it (its migrations, as it ran them), holding what every
   * schema can hold: a grant, a held hold, a captured hold with its usage item (in its schema's shape),
   * and an API key.
   */
  function fileAtSchema(version: number): void {
    mkdirSync(dirname(path), { recursive: true });
    const db = raw();
    try {
      db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT");
      for (let v = 0; v < version; v++) applyMigration(db, v);
      const t = T0.getTime();
      db.exec(`
        INSERT INTO meta (key, value) VALUES ('schema_version', '${version}'), ('store_id', 'sto_old');
        INSERT INTO wallets (user_id, balance_credits, held_credits) VALUES ('u1', 57, 30);
        INSERT INTO journal (entry_id, user_id, kind, amount_credits, held_delta_credits, reference_id, reason, created_at) VALUES
          ('jrn_1', 'u1', 'grant', 100, 0, 'g1', 'welcome', ${t}), ('jrn_2', 'u1', 'hold', -30, 30, 'h1', NULL, ${t}),
          ('jrn_3', 'u1', 'hold', -13, 13, 'h0', NULL, ${t}), ('jrn_4', 'u1', 'capture', 0, -13, 'h0', NULL, ${t});
        INSERT INTO holds (hold_id, user_id, amount_credits, state, captured_credits, created_at, expires_at, route_key, settled_at) VALUES
          ('h1', 'u1', 30, 'held', 0, ${t}, ${t + 60_000}, 'r', NULL), ('h0', 'u1', 13, 'captured', 13, ${t}, ${t + 60_000}, 'r', ${t});
        INSERT INTO usage (${version >= 5 ? "item_key, kind, " : ""}hold_id, user_id, usage_id, created_at, product_key, capability_key, route_key, provider, network_key, status, duration_ms, agent_name, trace_id, error_code, credits_charged)
          VALUES (${version >= 5 ? "'h0', 'charge', " : ""}'h0', 'u1', 'use_0', ${t}, 'email', 'email.send', 'r', 'resend', 'direct', 'succeeded', 5, 'scout', 't', NULL, 13);
        INSERT INTO api_keys (key_id, user_id, key_hash, prefix, name, created_at, revoked_at) VALUES ('key_old', 'u1', 'hash_old', 'aak_old0', 'old', ${t}, NULL);`);
    } finally {
      db.close();
    }
  }

  it.each(Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1))(
    "migrates a schema %i file to the current schema, keeping its data",
    async (version) => {
      fileAtSchema(version);
      const store = await open();
      try {
        expect(await store.storeId()).toBe("sto_old");
        await expect(store.getWallet("u1")).resolves.toEqual({ userId: "u1", balanceCredits: 57, heldCredits: 30 });
        expect((await store.listJournal("u1")).map((e) => [e.entryId, e.kind, e.referenceId])).toEqual([
          ["jrn_1", "grant", "g1"],
          ["jrn_2", "hold", "h1"],
          ["jrn_3", "hold", "h0"],
          ["jrn_4", "capture", "h0"],
        ]);
        // Old usage items are charges (schema 5), without token counts (schema 3).
        const [old] = await store.listUsage("u1", 10);
        expect(old).toMatchObject({ kind: "charge", usageId: "use_0", holdId: "h0", creditsCharged: 13, agentName: "scout" });
        expect(old).not.toHaveProperty("inputTokens");
        // What later schemas added works on the migrated file: bookings (2), token counts (3), top-ups (4), movements and their pages (5).
        const payment = {
          rail: "x402" as const,
          network: "eip155:84532",
          asset: "0xa",
          amountAtomic: "5",
          amountMicroUsd: 5,
          payTo: "0xb",
          payer: "0xc",
          settlement: "settled" as const,
        };
        const draft = {
          usageId: "use_1",
          createdAt: new Date(T0.getTime() + 1),
          productKey: "email",
          capabilityKey: "email.send",
          routeKey: "r",
          provider: "resend",
          networkKey: "direct",
          status: "failed",
          durationMs: 5,
          traceId: "t",
          inputTokens: 7,
          outputTokens: 1,
        };
        await store.settleHold({
          holdId: "h1",
          userId: "u1",
          kind: "release",
          capturedCredits: 0,
          usage: draft,
          payments: [payment],
          now: T0,
        });
        await expect(store.listPlatformLosses({ from: T0, to: new Date(T0.getTime() + 1) })).resolves.toMatchObject([
          { paymentId: "h1/0", reason: "paid_attempt_released" },
        ]);
        await expect(store.getTopUp("tu_none")).resolves.toBeNull();
        await store.moveCredits({
          kind: "refund",
          userId: "u1",
          amountCredits: -7,
          reason: "duplicate charge",
          reference: "r1",
          operator: "admin",
          now: new Date(T0.getTime() + 2),
        });
        expect(
          (await store.listUsage("u1", 10)).map((u) => [u.kind, u.usageId.startsWith("jrn_") ? "jrn" : u.usageId, u.inputTokens]),
        ).toEqual([
          ["refund", "jrn", undefined],
          ["charge", "use_1", 7],
          ["charge", "use_0", undefined],
        ]);
        await expect(store.listUsage("u1", 10, { kind: "charge", after: usagePosition(old!) })).resolves.toEqual([]);
        await expect(findLedgerViolations(store)).resolves.toEqual([]);
        // Keys of old files have no limits of their own until given some (6).
        expect(await store.findApiKeyByHash("hash_old")).not.toHaveProperty("limits");
        await expect(store.setApiKeyLimits("key_old", { requestsPerSecond: 3 })).resolves.toMatchObject({
          keyId: "key_old",
          limits: { requestsPerSecond: 3 },
        });
        // Keys of old files act as any agent (8).
        const key = await store.findApiKeyByHash("hash_old");
        expect(key).not.toHaveProperty("agentName");
        expect(key).not.toHaveProperty("agentNames");
      } finally {
        await store.close();
      }
      const check = raw();
      try {
        expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
        expect(check.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
      } finally {
        check.close();
      }
    },
  );

  it("migrates a schema 7 file's agent names to their normalized form: one policy and one spend per agent, however it was spelled", async () => {
    fileAtSchema(7);
    const db = raw();
    const t = T0.getTime();
    const day = T0.toISOString().slice(0, 10);
    try {
      db.prepare(
        `INSERT INTO spend_policies (key_id, agent_name, budget_credits, reset, capability_caps, max_price_credits, created_at, updated_at)
         VALUES (?, ?, ?, 'daily', '[]', NULL, ?, ?)`,
      ).run("key_old", "Alpha", 50, t, t + 2); // set last: it stays
      db.prepare(
        `INSERT INTO spend_policies (key_id, agent_name, budget_credits, reset, capability_caps, max_price_credits, created_at, updated_at)
         VALUES (?, ?, ?, 'daily', '[]', NULL, ?, ?)`,
      ).run("key_old", "alpha​", 500, t, t + 1);
      const bucket = db.prepare(
        `INSERT INTO spend_buckets (key_id, day, agent_name, capability_key, held_credits, held_count, captured_credits, captured_count)
         VALUES ('key_old', ?, ?, '', ?, 1, ?, 1)`,
      );
      bucket.run(day, "Alpha", 10, 1);
      bucket.run(day, "ＡＬＰＨＡ", 0, 4);
      bucket.run(day, "​", 3, 0); // no name at all once normalized: the holds without an agent
      bucket.run(day, "beta", 7, 0);
    } finally {
      db.close();
    }
    const store = await open();
    try {
      const policies = await store.listSpendPolicies(["key_old"]);
      expect(policies.map((p) => [p.agentName, p.budgetCredits])).toEqual([["alpha", 50]]);
      await expect(store.spendUsage({ keyId: "key_old", agentName: "alpha" }, T0)).resolves.toMatchObject({ spentCredits: 15 });
      await expect(store.spendUsage({ keyId: "key_old", agentName: "" }, T0)).resolves.toMatchObject({ spentCredits: 3 });
      await expect(store.spendUsage({ keyId: "key_old", exceptAgentNames: ["alpha"] }, T0)).resolves.toMatchObject({ spentCredits: 10 });
      await expect(store.spendUsage({ keyId: "key_old" }, T0)).resolves.toMatchObject({ spentCredits: 25 });
    } finally {
      await store.close();
    }
  });

  it("pages and filters usage through its indexes, never sorting", async () => {
    await (await open()).close();
    const db = raw();
    try {
      const after = { createdAt: T0, key: "h1" };
      const queries = [
        {},
        { after },
        { kind: "refund" as const, after },
        { capabilityKey: "email.send", from: T0 },
        { agentName: "scout", to: T0, after },
        { from: T0, to: T0 },
      ];
      for (const query of queries) {
        const { sql, params } = usageQuerySql("u1", 21, query);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join("; ");
        expect({ query, plan }).toEqual({ query, plan: expect.stringMatching(/USING INDEX usage_by_user/) });
        expect({ query, plan }).toEqual({ query, plan: expect.not.stringMatching(/TEMP B-TREE/) });
      }
    } finally {
      db.close();
    }
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
    await expect(store.settleHold({ holdId: "h", userId: "u1", kind: "release", capturedCredits: 0, now: T0 })).rejects.toThrow(
      /ledger invariant/,
    );
    await expect(store.getWallet("u1")).resolves.toEqual({ userId: "u1", balanceCredits: 0, heldCredits: 10 });
    await expect(store.getHold("h")).resolves.toMatchObject({ state: "held" });
    await expect(store.listJournal("u1")).resolves.toHaveLength(2);
    // The store still works after the rollback.
    await expect(store.grant({ grantId: "g2", userId: "u1", amountCredits: 1, reason: "", now: T0 })).resolves.toMatchObject({
      status: "granted",
    });
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
    const child = spawn(
      process.execPath,
      ["--require", join(LEDGER_DIR, "test/register-ts.cjs"), join(LEDGER_DIR, "test/sqlite-writer.ts"), path],
      {
        cwd: LEDGER_DIR,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
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

describe("SqliteLedgerStore in memory", () => {
  it("is a store of its own per open, writes no file, and is gone when closed", async () => {
    const a = await SqliteLedgerStore.open({ path: IN_MEMORY });
    const b = await SqliteLedgerStore.open({ path: IN_MEMORY });
    try {
      expect(a.path).toBe(IN_MEMORY);
      expect(await a.storeId()).not.toBe(await b.storeId());
      await a.grant({ grantId: "g", userId: "u1", amountCredits: 10, reason: "", now: new Date() });
      await expect(a.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 10 });
      await expect(b.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 0 });
    } finally {
      await a.close();
      await b.close();
    }
    await expect(a.getWallet("u1")).rejects.toThrow();
  });
});
