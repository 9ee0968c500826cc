// Online backup and restore of the SQLite ledger store (LEDGER_STORE=sqlite). A backup is taken with
// SQLite's backup API while ledgers keep serving: one backup step copies every page under a single
// read transaction, so the copy is the database as of one commit (WAL readers never block writers,
// and a copy in several steps would restart whenever a ledger commits). It is written beside the
// target, checked (integrity_check, a ledger's schema and store id) and only then renamed into place,
// so a backup file is never a partial one. A restore puts a checked backup in place of a stopped
// ledger's database; the database it replaces is kept beside it, never deleted.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { DatabaseSync, backup } from "node:sqlite";

/** Pages per backup step: all of them in one step, so the copy is one consistent snapshot. */
const ALL_PAGES = 2 ** 31 - 1;

/** Tables a ledger database has whatever its schema version (the money's own). */
const LEDGER_TABLES = ["wallets", "holds", "meta"];

export interface BackupSummary {
  /** Where the backup is. */
  path: string;
  /** Its size in bytes. */
  bytes: number;
  /** The store id it holds (meta.store_id): the store the ledgers announce on NATS. */
  storeId: string;
  /** When the snapshot was taken (the backup's start; every commit before it is in the copy). */
  takenAt: Date;
}

/** Why a file is not a usable ledger backup, or undefined. */
function problemWith(path: string): string | undefined {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const integrity = db.prepare("PRAGMA integrity_check").get() as { integrity_check?: string } | undefined;
    if (integrity?.integrity_check !== "ok") return `integrity_check says ${String(integrity?.integrity_check)}`;
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
    const missing = LEDGER_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) return `not a ledger database (no table ${missing.join(", ")})`;
    if (!db.prepare("SELECT value FROM meta WHERE key = 'store_id'").get()) return "no store id in meta";
    return undefined;
  } finally {
    db.close();
  }
}

function storeIdOf(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare("SELECT value FROM meta WHERE key = 'store_id'").get() as { value: string }).value;
  } finally {
    db.close();
  }
}

/**
 * Copies the ledger database at `sourcePath` to `destPath` while ledgers may be writing to it.
 * Refuses to overwrite an existing file. Resolves once the backup is checked and in place.
 */
export async function backupSqliteLedger(sourcePath: string, destPath: string): Promise<BackupSummary> {
  const source = resolve(sourcePath);
  const dest = resolve(destPath);
  if (!existsSync(source)) throw new Error(`no ledger database at ${source}`);
  if (existsSync(dest)) throw new Error(`${dest} exists: a backup never overwrites a file`);
  const partial = join(dirname(dest), `.${basename(dest)}.partial`);
  rmSync(partial, { force: true });
  // The ledgers' busy timeout: a checkpoint holding the lock briefly is waited for, not an error.
  const db = new DatabaseSync(source, { timeout: 5_000 });
  const takenAt = new Date();
  try {
    await backup(db, partial, { rate: ALL_PAGES });
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
  const problem = problemWith(partial);
  if (problem) {
    rmSync(partial, { force: true });
    throw new Error(`the backup of ${source} failed its check: ${problem}`);
  }
  renameSync(partial, dest);
  return { path: dest, bytes: statSync(dest).size, storeId: storeIdOf(dest), takenAt };
}

export interface RestoreSummary {
  /** The database now in place (a copy of the backup). */
  path: string;
  storeId: string;
  /** Where the database it replaced was moved (its -wal and -shm beside it), when there was one. */
  replacedTo?: string;
}

/**
 * Puts the backup at `backupPath` in place as the ledger database `targetPath`. Every ledger on that
 * file must be stopped (a running one would keep writing to the file it has open). A database already
 * there is moved aside to `<target>.replaced-<time>` with its WAL, never deleted.
 */
export async function restoreSqliteLedger(backupPath: string, targetPath: string, now = new Date()): Promise<RestoreSummary> {
  const from = resolve(backupPath);
  const target = resolve(targetPath);
  if (!existsSync(from)) throw new Error(`no backup at ${from}`);
  const problem = problemWith(from);
  if (problem) throw new Error(`${from} is not a usable ledger backup: ${problem}`);
  mkdirSync(dirname(target), { recursive: true });
  const staged = join(dirname(target), `.${basename(target)}.restoring`);
  rmSync(staged, { force: true });
  // A copy through the backup API again: the backup file itself stays as it was.
  const db = new DatabaseSync(from, { readOnly: true });
  try {
    await backup(db, staged, { rate: ALL_PAGES });
  } finally {
    db.close();
  }
  let replacedTo: string | undefined;
  if (existsSync(target)) {
    replacedTo = `${target}.replaced-${now.toISOString().replace(/[:.]/g, "-")}`;
    for (const suffix of ["", "-wal", "-shm"]) if (existsSync(target + suffix)) renameSync(target + suffix, replacedTo + suffix);
  }
  renameSync(staged, target);
  return { path: target, storeId: storeIdOf(target), ...(replacedTo ? { replacedTo } : {}) };
}
