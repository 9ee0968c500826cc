// `npm run ledger -- backup <file>` and `restore <file>` on the SQLite store named by
// LEDGER_SQLITE_PATH: a backup that never overwrites, a restore that keeps what it replaces and says
// the next step, and a file that is not a ledger refused.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteLedgerStore } from "../../src/store/sqlite/sqlite-store";
import { startTestLedger } from "../harness";
import { runScript, uid, useNatsServer } from "../support";

const nats = useNatsServer();

describe("ledger backup and restore CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledger-backup-cli-"));
  const saved = process.env.LEDGER_SQLITE_PATH;
  afterAll(() => {
    process.env.LEDGER_SQLITE_PATH = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it("backs up a served ledger, refuses to overwrite, restores beside what it replaces", async () => {
    const database = join(dir, "ledger.sqlite");
    const store = await SqliteLedgerStore.open({ path: database });
    const ledger = await startTestLedger({ natsUrl: nats().url, store });
    const userId = uid("user");
    await ledger.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_234, reason: "" });

    process.env.LEDGER_SQLITE_PATH = database;
    process.env.LEDGER_BACKUP_METRICS_DIR = dir;
    const before = Math.floor(Date.now() / 1000);
    const backup = await runScript("ledger.mjs", "", ["backup", join(dir, "b.db")]);
    delete process.env.LEDGER_BACKUP_METRICS_DIR;
    expect(backup).toMatchObject({ code: 0, stdout: expect.stringContaining(`written to ${join(dir, "b.db")}`) });
    // What node-exporter's textfile collector serves, and AgenticLedgerBackupStale reads.
    const textfile = readFileSync(join(dir, "agentic_ledger_backup.prom"), "utf8");
    const taken = Number(
      new RegExp(`^ledger_backup_last_success_timestamp_seconds\\{database="${database}"\\} (\\d+)$`, "m").exec(textfile)?.[1],
    );
    expect(taken).toBeGreaterThanOrEqual(before);
    expect(textfile).toMatch(/^ledger_backup_size_bytes\{database=".+"\} [1-9]\d*$/m);
    await ledger.stop();
    await store.close();
    expect(await runScript("ledger.mjs", "", ["backup", join(dir, "b.db")])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("a backup never overwrites a file"),
    });

    process.env.LEDGER_SQLITE_PATH = join(dir, "restored", "ledger.sqlite");
    for (let i = 0; i < 2; i++) {
      const restore = await runScript("ledger.mjs", "", ["restore", join(dir, "b.db")]);
      expect(restore).toMatchObject({ code: 0, stdout: expect.stringContaining("nats consumer rm EXECUTIONS ledger") });
    }
    expect(readdirSync(join(dir, "restored")).filter((f) => f.includes(".replaced-") && !/-(wal|shm)$/.test(f))).toHaveLength(1);
    const restored = await SqliteLedgerStore.open({ path: process.env.LEDGER_SQLITE_PATH });
    expect(await restored.getWallet(userId)).toMatchObject({ balanceCredits: 1_234 });
    await restored.close();

    writeFileSync(join(dir, "not-a-ledger.db"), "hello");
    expect(await runScript("ledger.mjs", "", ["restore", join(dir, "not-a-ledger.db")])).toMatchObject({ code: 1 });
    expect(await runScript("ledger.mjs", "", ["backup"])).toMatchObject({ code: 2 });
    expect(existsSync(join(dir, ".b.db.partial"))).toBe(false);
  });
});
