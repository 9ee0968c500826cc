// The MongoDB migrations on a real server, run by store.contract.test.ts when MONGODB_URI points at a
// replica set (each test its own database, dropped afterwards). A ledger refuses a database behind and
// names the command; the migrations run once each, in order, when run twice and when run at once (the
// lock); a run that fails resumes from the failed one. The pure part (which migrations are pending) is
// mongo/migration-plan.test.ts.
import { randomBase62 } from "@agentic/platform";
import { migrateMongoLedger, readSchemaStatus } from "../mongo/migrate";
import { connectMongoDb } from "../mongo/mongo-client";
import type { MongoDb } from "../mongo/mongo-db";
import { MONGO_MIGRATIONS, type MongoMigration } from "../mongo/migrations";
import { MongoLedgerStore } from "../mongo/mongo-store";

export function describeMongoMigrationsContract(uri: string): void {
  describe("MongoDB ledger migrations", () => {
    let dbName: string;
    const opened: MongoDb[] = [];
    const open = async () => {
      const m = await connectMongoDb({ uri: uri, dbName });
      opened.push(m);
      return m;
    };
    beforeEach(() => {
      dbName = `ledger_migrate_${randomBase62(10)}`;
    });
    afterEach(async () => {
      await opened[0]?.db.dropDatabase();
      await Promise.all(opened.splice(0).map((m) => m.client.close()));
    });

    it("a ledger refuses a database that is not migrated, naming the command; after migrate it starts", async () => {
      await expect(MongoLedgerStore.connect({ uri: uri, dbName })).rejects.toThrow(/version 0.*npm run ledger -- migrate/s);
      const { applied, status } = await migrateMongoLedger(await open());
      expect(applied.map((a) => a.id)).toEqual(MONGO_MIGRATIONS.map((m) => m.id));
      expect(status).toMatchObject({ version: MONGO_MIGRATIONS.length, pending: [] });
      const store = await MongoLedgerStore.connect({ uri: uri, dbName });
      await store.close();
    });

    it("run twice and run at once, each migration runs once, in order, and the lock is gone after", async () => {
      const runs: number[] = [];
      const counted: MongoMigration[] = MONGO_MIGRATIONS.map((m) => ({ ...m, up: async (db) => (runs.push(m.id), m.up(db)) }));
      const [a, b] = await Promise.all([open(), open()]);
      const results = await Promise.all([
        migrateMongoLedger(a, { migrations: counted, retryEveryMs: 50 }),
        migrateMongoLedger(b, { migrations: counted, retryEveryMs: 50 }),
      ]);
      expect(runs).toEqual(MONGO_MIGRATIONS.map((m) => m.id));
      expect(results.flatMap((r) => r.applied.map((x) => x.id)).sort()).toEqual(MONGO_MIGRATIONS.map((m) => m.id));
      expect((await migrateMongoLedger(a, { migrations: counted })).applied).toEqual([]);
      expect(runs).toHaveLength(MONGO_MIGRATIONS.length);
      expect(await a.db.collection("ledger_migrations").findOne({ _id: "lock" as never })).toBeNull();
      expect((await readSchemaStatus(a)).pending).toEqual([]);
    });

    it("a run that fails half-way records what it finished; the next run starts from the failed one", async () => {
      const m = await open();
      const failing: MongoMigration[] = [
        MONGO_MIGRATIONS[0],
        { id: 2, name: "fails", up: async () => Promise.reject(new Error("disk full")) },
      ];
      await expect(migrateMongoLedger(m, { migrations: failing })).rejects.toThrow("disk full");
      expect((await readSchemaStatus(m, failing)).pending.map((p) => p.id)).toEqual([2]);
      const { applied } = await migrateMongoLedger(m);
      expect(applied.map((a) => a.id)).toEqual(MONGO_MIGRATIONS.slice(1).map((x) => x.id));
    });
  });
}
