// One open SQLite file as the store's parts use it: prepared statements (each prepared once) and the
// group-commit transaction every operation runs in (see sqlite-store.ts for why the operations of one
// event-loop turn share one COMMIT).
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** One turn's group transaction: the operations waiting for its COMMIT. */
interface CommitGroup {
  waiters: { resolve: () => void; reject: (err: unknown) => void }[];
  /** Committed or rolled back: no operation may join it any more. */
  ended: boolean;
}

export class SqliteDb {
  private readonly statements = new Map<string, StatementSync>();
  /** The transaction the operations of this event-loop turn share, committed at its end. */
  private group: CommitGroup | undefined;

  constructor(
    readonly db: DatabaseSync,
    /** The absolute path of the database file (":memory:" for one in memory). */
    readonly path: string,
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

  /**
   * Runs `fn` atomically: in its own SAVEPOINT of this turn's group transaction (BEGIN IMMEDIATE:
   * the write lock first, so it is also a consistent snapshot for reads), undone when it throws.
   * `fn` is synchronous, so nothing else in this process runs in between. Resolves with its value
   * once the group's COMMIT returned (durable); rejects when `fn` throws, or when the COMMIT fails.
   */
  transaction<T>(fn: () => T): Promise<T> {
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

  /** Commits the open group (if any) and closes the file. */
  close(): void {
    if (this.group) this.commitGroup(this.group);
    if (this.db.isOpen) this.db.close();
  }

  /** Begins this turn's group transaction (throws when the write lock stays taken past busy_timeout); commits it once the turn ends. */
  private openGroup(): CommitGroup {
    this.db.exec("BEGIN IMMEDIATE");
    const group: CommitGroup = { waiters: [], ended: false };
    this.group = group;
    setImmediate(() => this.commitGroup(group));
    return group;
  }

  /** Commits the group and answers its operations; a failed COMMIT rolls it back and fails them all. */
  private commitGroup(group: CommitGroup): void {
    if (group.ended) return;
    group.ended = true;
    if (this.group === group) this.group = undefined;
    try {
      this.db.exec("COMMIT");
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      for (const w of group.waiters) w.reject(err);
      return;
    }
    for (const w of group.waiters) w.resolve();
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
    }
  }
}

export const ms = (date: Date): number => date.getTime();
export const msOrNull = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
