// The embedded, durable ledger store (the default outside production): one SQLite file through
// Node's built-in `node:sqlite` (built into Node 24, so nothing to install). Why this shape:
// - DatabaseSync is synchronous, so every method runs its checks and its writes inside one
//   `BEGIN IMMEDIATE` transaction with no `await` in between: atomic on Node's single thread
//   (nothing interleaves) and against other processes on the same file (IMMEDIATE takes the write
//   lock before the first read, so nobody can change what was checked before it is written).
// - WAL journal with `synchronous=FULL`: COMMIT returns only after the WAL is fsynced, so a
//   committed transaction survives SIGKILL and power loss; readers never block the writer.
// - Group commit: the fsync of a COMMIT blocks this thread (0.3 ms on a quiet disk, several on a
//   busy one), so one per operation would cap the ledger at a few thousand writes a second and stall
//   everything else meanwhile. The operations of one event-loop turn share one transaction and one
//   COMMIT instead: each runs in its own SAVEPOINT (a failing one undoes only itself), and none is
//   answered before that COMMIT returned, so every answer is still durable; a failed COMMIT fails
//   them all. A read outside a transaction may see the open group's writes, which are answered
//   (durable) at the end of the same turn, or undone together.
// - Every operation loads its facts, takes the one decision of domain/decide-*.ts (the same the MongoDB
//   store takes) and applies its effects (apply-effects.ts), all inside that transaction. CHECK
//   constraints (balance >= 0, held >= 0, known states) and unique indexes are the last guard beneath
//   them. Any error rolls the transaction back: nothing written.
// - One part per aggregate (keys, money, spend, quotes, executions, top-ups, books), on one SqliteDb.
// - Path ":memory:" opens a database in memory (tests; LEDGER_STORE=memory): no file, no WAL, gone on close.
// Times are stored as integer ms since the epoch and handed out as fresh Date objects.
// A lock held by another process is waited for up to busy_timeout, blocking this thread: share one
// file only between ledgers on the same machine (WAL needs a local filesystem, never NFS).
import { mkdirSync } from "node:fs";
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
import { SqliteDb } from "./sqlite-db";
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
   * Opens (creating when missing) the database at `opts.path`: WAL, synchronous=FULL, busy_timeout,
   * foreign keys, then the schema up to SCHEMA_VERSION and the store id, in one transaction.
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
      return new SqliteLedgerStore(new SqliteDb(db, path));
    } catch (err) {
      db.close();
      throw err;
    }
  }

  async ping(): Promise<void> {
    this.conn.sql("SELECT 1").get();
  }

  async close(): Promise<void> {
    this.conn.close();
  }

  async storeId(): Promise<string> {
    const row = this.conn.sql("SELECT value FROM meta WHERE key = 'store_id'").get() as { value: string } | undefined;
    if (!row) throw new Error(`ledger sqlite ${this.path}: store id missing from meta`);
    return row.value;
  }
}
