// Runs the MongoDB ledger's pending migrations (migrations.ts) under a lock, and reads where a
// database stands. The collection ledger_migrations holds one document per migration run
// ({_id: id, name, appliedAt, durationMs}) and, while a run is in progress, the document
// {_id: "lock"}: of two runs at once (two Jobs, an operator and a Job) one takes the lock, the other
// waits for it to go and then finds nothing pending. A lock whose holder died expires (lockTtlMs) and
// is taken over; the holder renews it after each migration. Every migration is idempotent, so one cut
// off half-way runs again whole, and running the command twice changes nothing the second time.
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { COLLECTIONS, isDuplicateKey, type MongoDb } from "./mongo-db";
import { schemaStatus, type SchemaStatus } from "./migration-plan";
import { MONGO_MIGRATIONS, type MongoMigration } from "./migrations";

interface MigrationDoc {
  _id: number | "lock";
  name?: string;
  appliedAt?: Date;
  durationMs?: number;
  owner?: string;
  expiresAt?: Date;
}

export interface MigrateOptions {
  /** The list to run (default MONGO_MIGRATIONS; tests pass their own). */
  migrations?: readonly MongoMigration[];
  /** How long a lock holds without renewal before another run may take it over (default 10 minutes). */
  lockTtlMs?: number;
  /** How long to wait for another run's lock before giving up (default 30 minutes). */
  waitForLockMs?: number;
  /** Between two tries of a held lock (default 1 s). */
  retryEveryMs?: number;
  /** Progress lines (which migration runs, how long it took, waiting for a lock). */
  log?: (line: string) => void;
}

export interface MigrateResult {
  /** The migrations this run applied, in order (empty: the database was current). */
  applied: { id: number; name: string; durationMs: number }[];
  status: SchemaStatus;
}

const collection = (m: MongoDb) => m.db.collection<MigrationDoc>(COLLECTIONS.migrations);

/** The ids a database records as run, and where that leaves it against `migrations`. */
export async function readSchemaStatus(m: MongoDb, migrations: readonly MongoMigration[] = MONGO_MIGRATIONS): Promise<SchemaStatus> {
  const runs = await collection(m)
    .find({ _id: { $ne: "lock" } }, { projection: { _id: 1 } })
    .toArray();
  return schemaStatus(
    migrations,
    runs.map((r) => r._id as number),
  );
}

/** Runs every pending migration in order, once, under the lock; safe to run twice and at once. */
export async function migrateMongoLedger(m: MongoDb, opts: MigrateOptions = {}): Promise<MigrateResult> {
  const migrations = opts.migrations ?? MONGO_MIGRATIONS;
  const log = opts.log ?? (() => {});
  const lockTtlMs = opts.lockTtlMs ?? 10 * 60_000;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  schemaStatus(migrations, []); // a malformed list fails before anything runs

  await acquireLock(m, owner, lockTtlMs, opts.waitForLockMs ?? 30 * 60_000, opts.retryEveryMs ?? 1_000, log);
  const applied: MigrateResult["applied"] = [];
  try {
    // Read under the lock: a run that held it before may have applied some or all of them.
    const { pending } = await readSchemaStatus(m, migrations);
    for (const { id } of pending) {
      const migration = migrations[id - 1];
      log(`migration ${id} (${migration.name}): running`);
      const started = Date.now();
      await migration.up(m);
      const durationMs = Date.now() - started;
      await collection(m).updateOne({ _id: id }, { $set: { name: migration.name, appliedAt: new Date(), durationMs } }, { upsert: true });
      applied.push({ id, name: migration.name, durationMs });
      log(`migration ${id} (${migration.name}): done in ${durationMs} ms`);
      await renewLock(m, owner, lockTtlMs);
    }
  } finally {
    await collection(m).deleteOne({ _id: "lock", owner });
  }
  return { applied, status: await readSchemaStatus(m, migrations) };
}

/** Takes the lock document (inserting it, or taking over an expired one), waiting while another run holds it. */
async function acquireLock(m: MongoDb, owner: string, ttlMs: number, waitMs: number, retryEveryMs: number, log: (line: string) => void) {
  const giveUpAt = Date.now() + waitMs;
  for (let said = false; ;) {
    const now = new Date();
    try {
      // Matches no document while an unexpired lock exists, so the upsert's insert of _id "lock" fails.
      await collection(m).updateOne(
        { _id: "lock", expiresAt: { $lt: now } },
        { $set: { owner, expiresAt: new Date(now.getTime() + ttlMs) } },
        { upsert: true },
      );
      return;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const holder = await collection(m).findOne({ _id: "lock" });
    if (Date.now() >= giveUpAt) {
      throw new Error(`another migration run holds the lock (${holder?.owner ?? "?"}, until ${holder?.expiresAt?.toISOString() ?? "?"})`);
    }
    if (!said) log(`waiting for the migration run of ${holder?.owner ?? "another process"} to finish`);
    said = true;
    await delay(retryEveryMs); // the lock lives in MongoDB: there is no event to await, only its next state
  }
}

async function renewLock(m: MongoDb, owner: string, ttlMs: number) {
  const renewed = await collection(m).updateOne({ _id: "lock", owner }, { $set: { expiresAt: new Date(Date.now() + ttlMs) } });
  if (renewed.matchedCount !== 1)
    throw new Error("the migration lock expired and was taken over: raise lockTtlMs above the longest migration");
}
