// The embedded, durable ledger store (the default outside production): one SQLite file through
// Node's built-in `node:sqlite` (built into Node 24, so nothing to install). Why this shape:
// - DatabaseSync is synchronous, so every method runs its checks and its writes inside one
//   `BEGIN IMMEDIATE` transaction with no `await` in between: atomic on Node's single thread
//   (nothing interleaves) and against other processes on the same file (IMMEDIATE takes the write
//   lock before the first read, so nobody can change what was checked before it is written).
// - WAL journal, group commit, and the fsync off the event loop: see "Durability" below.
// - Every operation loads its facts, takes the one decision of domain/decide-*.ts (the same the MongoDB
//   store takes) and applies its effects (apply-effects.ts), all inside that transaction. CHECK
//   constraints (balance >= 0, held >= 0, known states) and unique indexes are the last guard beneath
//   them. Any error rolls the transaction back: nothing written.
// - One part per aggregate (keys, money, spend, quotes, executions, top-ups, books), on one SqliteDb.
// - Path ":memory:" opens a database in memory (tests; LEDGER_STORE=memory): no file, no WAL, gone on close.
// Times are stored as integer ms since the epoch and handed out as fresh Date objects.
// A lock held by another process is waited for up to busy_timeout, blocking this thread: share one
// file only between ledgers on the same machine (WAL needs a local filesystem, never NFS).
//
// Durability: no answer (and so no NATS ack or event, which follow the answers) before its data is
// fsynced, without the fsync on the event loop. Measured on the bench's execute, COMMIT with
// synchronous=FULL (its fsync) took 21 % of the ledger's main thread, blocking everything else.
// - The operations of one event-loop turn share one transaction and one COMMIT (group commit): each
//   runs in its own SAVEPOINT (a failing one undoes only itself). `synchronous=NORMAL`: the COMMIT
//   writes the group's frames to the WAL file through the OS and returns without an fsync (tens of µs).
// - Then `fdatasync` of the WAL file, on the libuv threadpool (a FileHandle opened on `<file>-wal`),
//   and only once it completed are the group's operations answered (sqlite-db.ts). One fsync runs at a
//   time; the groups committed while it runs (the next turns' own, built and committed meanwhile) wait
//   for the next one, which covers them all: an fsync makes durable every write to the file before it
//   began, whichever descriptor wrote it (the page cache is the inode's). So the fsyncs size themselves
//   to the load, and answers go out in commit order.
// - A read outside a transaction may see the open group and groups whose fsync has not completed: its
//   answer waits for the newest of them (SqliteDb.read), so no answer shows what could still be lost.
// - Why the fsync of that file is enough: the frames of a COMMIT stay in the WAL file until a
//   checkpoint has copied them into the database file, and the WAL file is only rewritten from its
//   start (reset) after a complete checkpoint. In NORMAL mode a checkpoint fsyncs the WAL before
//   copying and the database file after, before it counts the frames as copied (wal.c); so a group
//   whose frames were overwritten by a reset before our fsync was already on disk in the database file.
//   The WAL file itself (the same inode the FileHandle holds) is never deleted while this connection
//   is open (only the last connection's close deletes it, after a checkpoint), its header is fsynced
//   by SQLite when it is (re)started, and its directory entry is fsynced once at open.
// - SIGKILL loses nothing answered either way (a COMMIT's writes are in the OS once it returns); the
//   fsync is what power loss and a kernel crash need. A lost frame after the last fsync is a
//   transaction nobody was answered about, and SQLite's WAL checksums drop it whole on recovery.
// - A failed fsync (EIO): the kernel may have dropped the unwritten pages and a later fsync would not
//   say so, so nothing committed since the last good fsync is known durable. Its groups, those committed
//   after and the open one fail, and the store refuses every operation, reads and ping included, until
//   the ledger restarts and reads what the disk holds (clients retry: every operation is idempotent).
// - Another process sharing the file: its writes reach the same WAL inode, so our fsyncs cover what our
//   transactions read of them; a pure read here may show another process's commit before that process's
//   own fsync completed (SQLite does not say which frames are synced).
// - Checkpoints (every 1000 WAL pages, inside the COMMIT that crosses it) still fsync on the event loop:
//   most of what COMMIT still costs there. Not moved to a second connection in a worker: the WAL
//   restarts only when a write begins with every frame checkpointed, and under steady load a
//   checkpoint elsewhere seldom catches up before the next COMMIT, so the WAL would grow while the
//   load lasts (the writer's own checkpoint, run right after its COMMIT, always catches up).
// - Measured (2026-11-29, this 2-core machine at load 12-24 from other work, so throughput swung 3x
//   between runs of the same code): in the bench's ledger profile under execute load, COMMIT went from
//   21.6 % of the main thread's busy time (1.8 ms per execute) to 7.6 % (0.6 ms); with
//   test/sqlite-commit-bench.ts (16 loops of hold + capture) the event loop went from 100 % busy to
//   35-69 %, its delay p50 from 3.6-7.2 ms to 1.1-2.2 ms; pairs/s and CPU per pair moved within the
//   noise (the threadpool handoff costs some tens of µs per fsync, sequential pairs 906-1225 µs before,
//   1036-1038 after).
import { mkdirSync } from "node:fs";
import { open as openFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { LedgerStore } from "../../domain/ports";
import { PartsLedgerStore } from "../parts-store";
import { SqliteBooks } from "./books";
import { SqliteUsageSummary } from "./usage-summary";
import { SqliteExecutions } from "./executions";
import { SqliteKeys } from "./keys";
import { SqliteMoney } from "./money";
import { SqliteQuotes } from "./quotes";
import { migrate } from "./schema";
import { SqliteSpend } from "./spend";
import { fdatasyncWal, SqliteDb, type WalFile, type WalSync } from "./sqlite-db";
import { SqliteTopUps } from "./top-ups";

export { applyMigration, MIGRATIONS, SCHEMA_VERSION } from "./schema";
export { usageQuerySql } from "./books";

const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** The path that opens a database in memory instead of a file. */
export const IN_MEMORY = ":memory:";

export interface SqliteLedgerStoreOptions {
  /** The database file (relative to the process cwd), created with its directories when missing; ":memory:" for one in memory. */
  path: string;
  /** How long a write waits for another process's lock before failing, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** How the WAL file is made durable before an answer (default: its fdatasync); tests slow it down or fail it. */
  walSync?: WalSync;
  /**
   * Called once when an fsync of the WAL failed: from then on the store refuses every operation, and
   * only a new process reads what the disk really holds (the ledger's main exits so it is restarted).
   */
  onDurabilityLost?: (failure: Error) => void;
}

export class SqliteLedgerStore extends PartsLedgerStore implements LedgerStore {
  private constructor(private readonly conn: SqliteDb) {
    super({
      keys: new SqliteKeys(conn),
      money: new SqliteMoney(conn),
      spend: new SqliteSpend(conn),
      quotes: new SqliteQuotes(conn),
      executions: new SqliteExecutions(conn),
      topUps: new SqliteTopUps(conn),
      books: new SqliteBooks(conn),
      usageSummary: new SqliteUsageSummary(conn),
    });
  }

  /** The absolute path of the database file (":memory:" for one in memory). */
  get path(): string {
    return this.conn.path;
  }

  /**
   * Opens (creating when missing) the database at `opts.path`: WAL, busy_timeout, foreign keys, then
   * the schema up to SCHEMA_VERSION and the store id in one transaction (synchronous=FULL: durable when
   * open returns), then synchronous=NORMAL with the WAL file opened for the fsyncs that answer.
   */
  static async open(opts: SqliteLedgerStoreOptions): Promise<SqliteLedgerStore> {
    const inMemory = opts.path === IN_MEMORY;
    const path = inMemory ? IN_MEMORY : resolve(opts.path);
    if (!inMemory) mkdirSync(dirname(path), { recursive: true });
    const busyTimeoutMs = opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const db = new DatabaseSync(path, { timeout: busyTimeoutMs, enableForeignKeyConstraints: true });
    try {
      if (!inMemory) {
        const mode = db.prepare("PRAGMA journal_mode = WAL").get()?.journal_mode;
        // WAL is what makes concurrent readers and durable commits cheap; refuse to run without it.
        if (mode !== "wal")
          throw new Error(`ledger sqlite ${path}: journal_mode is ${String(mode)}, WAL is required (a file on a local disk)`);
      }
      db.exec(`PRAGMA synchronous = FULL; PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}; PRAGMA foreign_keys = ON;`);
      migrate(db, path);
      const wal = inMemory ? undefined : await openWal(path, opts.walSync ?? fdatasyncWal);
      if (wal) db.exec("PRAGMA synchronous = NORMAL");
      return new SqliteLedgerStore(new SqliteDb(db, path, wal, opts.onDurabilityLost));
    } catch (err) {
      db.close();
      throw err;
    }
  }

  async ping(): Promise<void> {
    this.conn.usable();
    this.conn.sql("SELECT 1").get();
  }

  async close(): Promise<void> {
    await this.conn.close();
  }

  async storeId(): Promise<string> {
    const row = this.conn.sql("SELECT value FROM meta WHERE key = 'store_id'").get() as { value: string } | undefined;
    if (!row) throw new Error(`ledger sqlite ${this.path}: store id missing from meta`);
    return row.value;
  }
}

/** Opens the WAL file SQLite created for `path` (the first read made it), and fsyncs their directory once so its entry is on disk. */
async function openWal(path: string, sync: WalSync): Promise<WalFile> {
  // Windows cannot open a directory (nor needs to: its directory entries are metadata NTFS journals).
  if (process.platform !== "win32") {
    const dir = await openFile(dirname(path), "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
  return { handle: await openFile(`${path}-wal`, "r"), sync };
}
