// `npm run ledger -- migrate [--status]`: the MongoDB ledger's numbered migrations (indexes, validators,
// rewritten documents), the same code the Kubernetes Job ledger-migrate runs before a rollout
// (services/ledger/src/migrate.ts, compiled; `npm run build` first). On the database itself, not over
// gRPC: MONGODB_URI and MONGODB_DB as the ledger has them. Safe to run twice and at once (a lock
// document); a ledger refuses to start until it has run (docs/mongodb-runbook.md).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const COMPILED = join(REPO_ROOT, "services/ledger/dist/migrate.js");

/** Runs `migrate [--status]`; returns the exit code (0 done or current, 1 failed or pending, 2 bad usage). */
export async function runMigrateCommand(positionals, flags, { fail }) {
  if (positionals.length) fail(`migrate takes no argument: npm run ledger -- migrate [--status]`, 2);
  if (!existsSync(COMPILED)) fail(`${COMPILED} is missing: run npm run build first`, 2);
  const { runMigrateCommand: run } = createRequire(import.meta.url)(COMPILED);
  return run(flags.status ? ["--status"] : [], {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`ledger: ${line}\n`),
  });
}
