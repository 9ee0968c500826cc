// One open SQLite file as the store's parts use it: prepared statements (each prepared once), the
// group-commit transaction every operation runs in, and the WAL fsync that answers it (see
// sqlite-store.ts for why the operations of one event-loop turn share one COMMIT, and why the fsync
// runs on the libuv threadpool after it).
import type { FileHandle } from "node:fs/promises";
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** Makes everything written to the WAL file so far durable: its fdatasync (tests slow it down or fail it). */
export type WalSync = (wal: FileHandle) => Promise<void>;

export const fdatasyncWal: WalSync = (wal) => wal.datasync();

/** The WAL file of a database on disk, and how it is synced; none for a database in memory. */
export interface WalFile {
  handle: FileHandle;
  sync: WalSync;
}

/** One turn's group transaction: the operations waiting for its COMMIT and the fsync after it. */
interface CommitGroup {
  waiters: { resolve: () => void; reject: (err: unknown) => void }[];
  /** Committed or rolled back: no operation may join it any more. */
  ended: boolean;
  /** Settles once this group and every group before it is durable (or failed): what a read waits for. */
  durable: Promise<void>;
  settle: (err?: unknown) => void;
  settled: boolean;
}

export class SqliteDb {
  private readonly statements = new Map<string, StatementSync>();
  /** The transaction the operations of this event-loop turn share, committed at its end. */
  private group: CommitGroup | undefined;
  /** The last group begun, until it settles: a read answers only once it is durable. */
  private newest: CommitGroup | undefined;
  /** Groups committed (or whose COMMIT failed) since the running fsync began: the next one covers them. */
  private unsynced: CommitGroup[] = [];
  /** The fsync loop, while it runs (one at a time: each covers every group committed before it began). */
  private syncing: Promise<void> | undefined;
  /** Set once an fsync failed: every operation is refused from then on. */
  private failure: Error | undefined;
  private closed = false;

  constructor(
    readonly db: DatabaseSync,
    /** The absolute path of the database file (":memory:" for one in memory). */
    readonly path: string,
    private wal?: WalFile,
    /** Called once when an fsync failed (the store refuses everything from then on): the process should restart. */
    private readonly onDurabilityLost?: (failure: Error) => void,
  ) {}

  /** A prepared statement, prepared once per store. */
  sql(query: string): StatementSync {
    let statement = this.statements.get(query);
    if (!statement) {
      statement = this.db.prepare(query);
      this.statements.set(query, statement);
    }
    return statement;
  }

  /** Throws when the store may not answer any more (an fsync failed, or it is closed). */
  usable(): void {
    if (this.failure) throw this.failure;
    if (this.closed) throw new Error(`ledger sqlite ${this.path}: the store is closed`);
  }

  /**
   * Runs `fn` atomically: in its own SAVEPOINT of this turn's group transaction (BEGIN IMMEDIATE:
   * the write lock first, so it is also a consistent snapshot for reads), undone when it throws.
   * `fn` is synchronous, so nothing else in this process runs in between. Resolves with its value
   * once the group's COMMIT returned and an fsync of the WAL begun after it completed (durable);
   * rejects when `fn` throws, or when the COMMIT or the fsync fails.
   */
  transaction<T>(fn: () => T): Promise<T> {
    this.usable();
    const group = this.group ?? this.openGroup();
    this.db.exec("SAVEPOINT operation");
    let value: T;
    try {
      value = fn();
      this.db.exec("RELEASE operation");
    } catch (err) {
      this.undoOperation(group, err);
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => group.waiters.push({ resolve: () => resolve(value), reject }));
  }

  /**
   * Runs the read `fn` now and answers with its value once everything it may have seen is durable:
   * it may see this turn's open group and groups committed whose fsync has not completed yet.
   */
  read<T>(fn: () => T): Promise<T> {
    this.usable();
    const value = fn();
    const pending = this.newest;
    return pending && !pending.settled ? pending.durable.then(() => value) : Promise.resolve(value);
  }

  /** Commits the open group (if any), waits for its fsync, and closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.group || this.syncing) {
      if (this.group) this.commitGroup(this.group);
      await this.syncing;
    }
    const wal = this.wal;
    this.wal = undefined;
    await wal?.handle.close();
    if (this.db.isOpen) this.db.close();
  }

  /** Begins this turn's group transaction (throws when the write lock stays taken past busy_timeout); commits it once the turn ends. */
  private openGroup(): CommitGroup {
    this.db.exec("BEGIN IMMEDIATE");
    let settle!: (err?: unknown) => void;
    const durable = new Promise<void>((resolve, reject) => {
      settle = (err?: unknown) => {
        group.settled = true;
        if (this.newest === group) this.newest = undefined;
        if (err === undefined) resolve();
        else reject(err);
      };
    });
    durable.catch(() => {}); // a read waiting on it gets the error; nobody else has to
    const group: CommitGroup = { waiters: [], ended: false, durable, settle, settled: false };
    this.group = group;
    this.newest = group;
    setImmediate(() => this.commitGroup(group));
    return group;
  }

  /**
   * Commits the group, then has the WAL fsynced before its operations are answered; a failed COMMIT
   * rolls it back and fails them all (its durability still waits for the groups before it).
   */
  private commitGroup(group: CommitGroup): void {
    if (group.ended) return;
    group.ended = true;
    if (this.group === group) this.group = undefined;
    try {
      this.db.exec("COMMIT");
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      for (const w of group.waiters) w.reject(err);
      group.waiters = [];
    }
    if (!this.wal) return this.answer(group);
    this.unsynced.push(group);
    this.syncing ??= this.syncLoop(this.wal);
  }

  /**
   * fsyncs the WAL until no committed group waits for it, answering after each fsync the groups that
   * committed before it began: those it covers. One at a time, so groups committed meanwhile share the next.
   */
  private async syncLoop(wal: WalFile): Promise<void> {
    while (this.unsynced.length > 0) {
      const covered = this.unsynced;
      this.unsynced = [];
      try {
        await wal.sync(wal.handle);
      } catch (err) {
        this.fail(err, covered);
        break;
      }
      for (const group of covered) this.answer(group);
    }
    this.syncing = undefined;
  }

  private answer(group: CommitGroup): void {
    for (const w of group.waiters) w.resolve();
    group.settle();
  }

  /**
   * An fsync failed: what was committed since the last one may never reach the disk (and a later fsync
   * may report success on pages the kernel already dropped), so nothing committed is known durable any
   * more. The groups it covered, those committed since and the open one fail, and so does every later
   * operation: the store must be reopened (the process restarted) to read what the disk really holds.
   */
  private fail(cause: unknown, covered: CommitGroup[]): void {
    const reason = cause instanceof Error ? cause.message : String(cause);
    this.failure = new Error(
      `ledger sqlite ${this.path}: an fsync of the WAL failed (${reason}); the store refuses every operation until the ledger restarts`,
      { cause },
    );
    const open = this.group;
    if (open) {
      open.ended = true;
      this.group = undefined;
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
    }
    for (const group of [...covered, ...this.unsynced, ...(open ? [open] : [])]) {
      for (const w of group.waiters) w.reject(this.failure);
      group.settle(this.failure);
    }
    this.unsynced = [];
    this.onDurabilityLost?.(this.failure);
  }

  /**
   * Undoes the operation that threw. Some SQLite errors (I/O, full disk) roll back the whole
   * transaction themselves, taking the group's earlier operations with them: those then fail too.
   */
  private undoOperation(group: CommitGroup, cause: unknown): void {
    try {
      if (!this.db.isTransaction) throw cause;
      this.db.exec("ROLLBACK TO operation");
      this.db.exec("RELEASE operation");
    } catch {
      group.ended = true;
      if (this.group === group) this.group = undefined;
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      for (const w of group.waiters) w.reject(cause);
      group.waiters = [];
      // Nothing of it was written: its durability is that of the groups before it.
      if (this.wal) {
        this.unsynced.push(group);
        this.syncing ??= this.syncLoop(this.wal);
      } else group.settle();
    }
  }
}

export const ms = (date: Date): number => date.getTime();
export const msOrNull = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
