// The last successful backup as Prometheus text, for node-exporter's textfile collector
// (--collector.textfile.directory): `npm run ledger -- backup` writes it when LEDGER_BACKUP_METRICS_DIR
// is set, and AgenticLedgerBackupStale (components/monitoring/rules/backup.yaml) alerts when the
// newest backup is older than the stream keeps settlements to replay after a restore.
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BackupSummary } from "./sqlite-backup";

/** The gauges written (one series each, labelled with the database backed up). */
export const BACKUP_METRICS = {
  lastSuccess: {
    name: "ledger_backup_last_success_timestamp_seconds",
    help: "When the newest good backup of the ledger database was taken (Unix seconds).",
  },
  size: { name: "ledger_backup_size_bytes", help: "Size of the newest good backup of the ledger database." },
} as const;

/** The file node-exporter reads: one per database, replaced atomically on each backup. */
export const BACKUP_TEXTFILE = "agentic_ledger_backup.prom";

/** Prometheus' label value escaping: backslash, double quote and newline. */
function labelValue(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** Prometheus text for `summary` of the database at `database`. */
export function backupMetricsText(database: string, summary: Pick<BackupSummary, "bytes" | "takenAt">): string {
  const labels = `{database="${labelValue(database)}"}`;
  const { lastSuccess, size } = BACKUP_METRICS;
  return [
    `# HELP ${lastSuccess.name} ${lastSuccess.help}`,
    `# TYPE ${lastSuccess.name} gauge`,
    `${lastSuccess.name}${labels} ${Math.floor(summary.takenAt.getTime() / 1000)}`,
    `# HELP ${size.name} ${size.help}`,
    `# TYPE ${size.name} gauge`,
    `${size.name}${labels} ${summary.bytes}`,
    "",
  ].join("\n");
}

/** Writes the textfile into `dir` (write then rename, so the collector never reads half a file). */
export function writeBackupTextfile(dir: string, database: string, summary: Pick<BackupSummary, "bytes" | "takenAt">): string {
  const path = join(dir, BACKUP_TEXTFILE);
  writeFileSync(`${path}.tmp`, backupMetricsText(database, summary));
  renameSync(`${path}.tmp`, path);
  return path;
}
