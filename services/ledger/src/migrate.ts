// The MongoDB ledger's migrations as a process: `node services/ledger/dist/migrate.js [--status]`, what
// the Kubernetes Job ledger-migrate runs before a rollout, and what `npm run ledger -- migrate` calls.
// Reads MONGODB_URI and MONGODB_DB (the ledger's own settings), runs every pending migration under the
// lock (store/mongo/migrate.ts) and says what ran; --status only says where the database stands.
// Exit codes: 0 done (or current), 1 failed or (--status) migrations pending, 2 bad usage.
import { DEFAULT_MONGODB_DB } from "./config";
import { connectMongoDb } from "./store/mongo/mongo-client";
import { migrateMongoLedger, readSchemaStatus } from "./store/mongo/migrate";
import type { SchemaStatus } from "./store/mongo/migration-plan";

export interface MigrateCommandIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

const describe = (s: SchemaStatus) =>
  `schema version ${s.version} of ${s.required}` +
  (s.pending.length ? `; pending: ${s.pending.map((m) => `${m.id} ${m.name}`).join(", ")}` : "; current") +
  (s.unknown.length ? `; run by a newer ledger: ${s.unknown.join(", ")}` : "");

/** Runs `migrate` (or `migrate --status`); returns the exit code. */
export async function runMigrateCommand(args: readonly string[], { env, out, err }: MigrateCommandIo): Promise<number> {
  const statusOnly = args.includes("--status");
  if (args.some((a) => a !== "--status")) {
    err("usage: migrate [--status]");
    return 2;
  }
  if (!env.MONGODB_URI) {
    err("migrate: MONGODB_URI is not set (the ledger's MongoDB replica set; the SQLite store needs no migration command)");
    return 2;
  }
  const dbName = env.MONGODB_DB || DEFAULT_MONGODB_DB;
  let m;
  try {
    m = await connectMongoDb({ uri: env.MONGODB_URI, dbName, appName: "agentic-ledger-migrate" });
  } catch (e) {
    err(`migrate: ${(e as Error).message}`);
    return 1;
  }
  try {
    if (statusOnly) {
      const status = await readSchemaStatus(m);
      out(`database ${dbName}: ${describe(status)}`);
      return status.pending.length ? 1 : 0;
    }
    const { applied, status } = await migrateMongoLedger(m, { log: out });
    out(
      `database ${dbName}: ${applied.length ? `applied ${applied.map((a) => a.id).join(", ")}` : "nothing to apply"}; ${describe(status)}`,
    );
    return 0;
  } catch (e) {
    err(`migrate: ${(e as Error).message}`);
    return 1;
  } finally {
    await m.client.close();
  }
}

if (require.main === module) {
  void runMigrateCommand(process.argv.slice(2), {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => (process.exitCode = code));
}
