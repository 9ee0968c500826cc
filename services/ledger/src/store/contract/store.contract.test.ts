// Runs the LedgerStore contract against SQLite always (a fresh file in its own temp dir per test) and
// against MongoDB when MONGODB_URI points at a replica set (transactions need one; each test gets its
// own database, dropped afterwards):
//   MONGODB_URI=mongodb://127.0.0.1:27017/?replicaSet=rs0 npx jest src/store/contract
// With MongoDB, the schema's migrations too (mongo-migrations.contract.ts). Without MONGODB_URI the run
// says so in one line; the MongoDB store and its migrations are still type-checked here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBase62 } from "@agentic/platform";
import { migrateMongoLedger } from "../mongo/migrate";
import { connectMongoDb } from "../mongo/mongo-client";
import { MongoLedgerStore } from "../mongo/mongo-store";
import { SqliteLedgerStore } from "../sqlite/sqlite-store";
import { describeBooksContract } from "./books.contract";
import { describeExecutionsContract } from "./executions.contract";
import { describeKeysContract } from "./keys.contract";
import { describeMoneyContract } from "./money.contract";
import { describeMongoMigrationsContract } from "./mongo-migrations.contract";
import { describeSpendPolicyContract } from "./spend.contract";
import type { StoreFactory } from "./support";
import { describeTopUpsContract } from "./top-ups.contract";
import { describeUsageContract } from "./usage.contract";
import { describeUsageSummaryContract } from "./usage-summary.contract";

const sqliteStore: StoreFactory = async () => {
  const dir = mkdtempSync(join(tmpdir(), "ledger-sqlite-"));
  const store = await SqliteLedgerStore.open({ path: join(dir, "ledger.sqlite") });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const mongoStore =
  (uri: string): StoreFactory =>
  async () => {
    // As in production: the migrations first (what the Job ledger-migrate runs), then a ledger's connect.
    const dbName = `ledger_test_${randomBase62(10)}`;
    const migrator = await connectMongoDb({ uri, dbName });
    await migrateMongoLedger(migrator).finally(() => migrator.client.close());
    const store = await MongoLedgerStore.connect({ uri, dbName });
    return {
      store,
      dispose: async () => {
        await store.db.dropDatabase();
        await store.close();
      },
    };
  };

const stores: [string, StoreFactory][] = [["sqlite", sqliteStore]];
const mongoUri = process.env.MONGODB_URI;
if (mongoUri) {
  stores.push(["mongodb", mongoStore(mongoUri)]);
  describeMongoMigrationsContract(mongoUri);
} else process.stderr.write("LedgerStore contract: MongoDB not run (MONGODB_URI is not set); SQLite only\n");

for (const [name, makeStore] of stores) {
  describeMoneyContract(name, makeStore);
  describeUsageContract(name, makeStore);
  describeUsageSummaryContract(name, makeStore);
  describeKeysContract(name, makeStore);
  describeExecutionsContract(name, makeStore);
  describeBooksContract(name, makeStore);
  describeSpendPolicyContract(name, makeStore);
  describeTopUpsContract(name, makeStore);
}
