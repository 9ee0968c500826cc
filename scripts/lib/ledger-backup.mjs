// `npm run ledger -- backup <file>` and `restore <file>`: the SQLite ledger store's online backup and
// its restore (services/ledger/src/backup/sqlite-backup.ts, compiled; `npm run build` first). They
// work on the database file, not over gRPC: run them where the file is (the ledger's host or pod),
// with the ledger's own LEDGER_SQLITE_PATH. A backup runs while ledgers serve; a restore needs every
// ledger on the file stopped, and is followed by `nats consumer rm EXECUTIONS ledger` before the
// first ledger starts again, so the settlements the stream still keeps are replayed (docs/backup-and-restore.md).
// LEDGER_BACKUP_METRICS_DIR: node-exporter's textfile directory, where a backup records when it was taken.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const COMPILED = join(REPO_ROOT, "services/ledger/dist/backup/sqlite-backup.js");
const TEXTFILE = join(REPO_ROOT, "services/ledger/dist/backup/backup-textfile.js");
/** The ledger's default (services/ledger/src/config.ts), relative to where it runs. */
const DEFAULT_DATABASE = "./data/ledger.sqlite";

/** Runs `backup <file>` or `restore <file>`; returns the exit code (0 done, 1 failed, 2 bad usage). */
export async function runBackupCommand(command, positionals, { fail }) {
  if (positionals.length !== 1) fail(`${command} needs one file: npm run ledger -- ${command} <file>`, 2);
  if (!existsSync(COMPILED)) fail(`${COMPILED} is missing: run npm run build first`, 2);
  const { backupSqliteLedger, restoreSqliteLedger } = createRequire(import.meta.url)(COMPILED);
  const database = process.env.LEDGER_SQLITE_PATH || DEFAULT_DATABASE;
  try {
    if (command === "backup") {
      const b = await backupSqliteLedger(database, positionals[0]);
      process.stdout.write(
        `backup of ${resolve(database)} written to ${b.path}: ${b.bytes} bytes, store ${b.storeId}, as of ${b.takenAt.toISOString()}\n`,
      );
      // For node-exporter's textfile collector: AgenticLedgerBackupStale alerts on its age.
      const metricsDir = process.env.LEDGER_BACKUP_METRICS_DIR;
      if (metricsDir) {
        const { writeBackupTextfile } = createRequire(import.meta.url)(TEXTFILE);
        process.stdout.write(`metrics written to ${writeBackupTextfile(metricsDir, resolve(database), b)}\n`);
      }
    } else {
      const r = await restoreSqliteLedger(positionals[0], database);
      process.stdout.write(
        `restored ${resolve(positionals[0])} to ${r.path} (store ${r.storeId})` +
          (r.replacedTo ? `; the database it replaced is at ${r.replacedTo}` : "") +
          `\nnext, before starting a ledger: nats consumer rm EXECUTIONS ledger (the stream's settlements then replay)\n`,
      );
    }
    return 0;
  } catch (err) {
    process.stderr.write(`ledger: ${command} failed: ${err.message}\n`);
    return 1;
  }
}
