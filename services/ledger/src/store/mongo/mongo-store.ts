// The production ledger store on MongoDB (official driver). Money moves in multi-document
// transactions (wallet + hold + journal + usage move together) with snapshot reads and majority
// writes, so a replica set is required (a single-node replica set is enough for development).
// Every operation loads its facts in its transaction, takes the one decision of domain/decide-*.ts (the
// same the SQLite store takes) and applies its effects there (mongo/apply-effects.ts), where every
// write is also a guard (`balanceCredits: {$gte: amount}`, `state: "held"`, an execution's `rev`):
// concurrent transactions on one wallet, hold or execution conflict and the driver runs them again on
// fresh facts. Executions (ledger_executions, one per Idempotency-Key) move in the same transactions
// as the holds of their attempts, so a hold is placed only for an execution that may start one and an
// outcome is recorded with the capture that charges it. Single-document operations (API keys,
// completing an execution outside a settlement) are compare-and-set updates. One part per aggregate
// (keys, money, spend, quotes, executions, top-ups, books), on one MongoDb. The wallets collection also
// carries a $jsonSchema validator (balance and held >= 0) as a last guard (mongo/indexes.ts).
// Collections, validator and indexes are made by the numbered migrations (mongo/migrations.ts), run
// before a rollout (`npm run ledger -- migrate`, Job ledger-migrate); a ledger only checks at start
// that they have all run, and refuses to start otherwise.
import { newId } from "@agentic/platform";
import type { LedgerStore } from "../../domain/ports";
import { PartsLedgerStore } from "../parts-store";
import { MongoBooks } from "./books";
import { MongoUsageSummary } from "./usage-summary";
import { MongoExecutions } from "./executions";
import { MongoKeys } from "./keys";
import { connectMongoDb, type MongoConnectOptions } from "./mongo-client";
import { COLLECTIONS, type MongoDb } from "./mongo-db";
import { readSchemaStatus } from "./migrate";
import { schemaProblem } from "./migration-plan";
import { MongoMoney } from "./money";
import { MongoQuotes } from "./quotes";
import { MongoSpend } from "./spend";
import { MongoTopUps } from "./top-ups";

export { COLLECTIONS } from "./mongo-db";

/** The one document of ledger_meta: the store's identity, written once by the first ledger that connects. */
interface MetaDoc {
  _id: "identity";
  storeId: string;
  createdAt: Date;
}

export type MongoLedgerStoreOptions = MongoConnectOptions;

export class MongoLedgerStore extends PartsLedgerStore implements LedgerStore {
  private constructor(private readonly m: MongoDb) {
    super({
      keys: new MongoKeys(m),
      money: new MongoMoney(m),
      spend: new MongoSpend(m),
      quotes: new MongoQuotes(m),
      executions: new MongoExecutions(m),
      topUps: new MongoTopUps(m),
      books: new MongoBooks(m),
      usageSummary: new MongoUsageSummary(m),
    });
  }

  /** The database (tests drop it). */
  get db(): MongoDb["db"] {
    return this.m.db;
  }

  /**
   * Connects, checks the server takes majority writes (a replica set) and that every migration has run;
   * refuses to open otherwise, naming the command that migrates. Creates nothing.
   */
  static async connect(opts: MongoLedgerStoreOptions): Promise<MongoLedgerStore> {
    const m = await connectMongoDb(opts);
    try {
      const problem = schemaProblem(await readSchemaStatus(m));
      if (problem) throw new Error(problem);
    } catch (err) {
      await m.client.close();
      throw err;
    }
    return new MongoLedgerStore(m);
  }

  async ping(): Promise<void> {
    await this.m.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.m.client.close();
  }

  async storeId(): Promise<string> {
    const meta = this.m.db.collection<MetaDoc>(COLLECTIONS.meta);
    // Insert-if-absent: every ledger on this database agrees on the first id written.
    await meta.updateOne({ _id: "identity" }, { $setOnInsert: { storeId: newId("store"), createdAt: new Date() } }, { upsert: true });
    const doc = await meta.findOne({ _id: "identity" });
    if (!doc) throw new Error("ledger_meta identity missing after upsert");
    return doc.storeId;
  }
}
