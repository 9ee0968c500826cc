// One MongoDB database as the store's parts use it: the ledger's collections and the transaction
// helper every money operation runs in (snapshot reads, majority writes, retried on conflicts).
import { MongoServerError, type ClientSession, type Collection, type Db, type MongoClient, type TransactionOptions } from "mongodb";
import type {
  ApiKeyDoc,
  ExecutionDoc,
  HoldDoc,
  JournalDoc,
  LossDoc,
  PaymentDoc,
  QuoteDoc,
  ResourceDoc,
  SpendBucketDoc,
  SpendPolicyDoc,
  TopUpDoc,
  UnchargedWorkDoc,
  UsageDoc,
  WalletDoc,
} from "./docs";

/** Collection names; prefixed because the database may be shared with other services. */
export const COLLECTIONS = {
  wallets: "ledger_wallets",
  holds: "ledger_holds",
  journal: "ledger_journal",
  usage: "ledger_usage",
  apiKeys: "ledger_api_keys",
  executions: "ledger_executions",
  resources: "ledger_resources",
  payments: "ledger_payments",
  platformLosses: "ledger_platform_losses",
  meta: "ledger_meta",
  /** One document per migration run (its id), and the `lock` document of the run in progress. */
  migrations: "ledger_migrations",
  topUps: "ledger_top_ups",
  spendPolicies: "ledger_spend_policies",
  spendBuckets: "ledger_spend_buckets",
  quotes: "ledger_quotes",
  unchargedWork: "ledger_uncharged_work",
} as const;

/** Runs of a transaction that failed on a duplicate key (a concurrent first insert won) before giving up. */
const DUPLICATE_KEY_ATTEMPTS = 5;

const TRANSACTION: TransactionOptions = {
  readConcern: { level: "snapshot" },
  writeConcern: { w: "majority", journal: true },
  readPreference: "primary",
};

/** Thrown inside a transaction to abort it and hand a result to the caller. */
export class Abort<T> extends Error {
  constructor(readonly value: T) {
    super("transaction aborted on purpose");
  }
}

export const isDuplicateKey = (err: unknown) => err instanceof MongoServerError && err.code === 11000;

export class MongoDb {
  readonly wallets: Collection<WalletDoc>;
  readonly holds: Collection<HoldDoc>;
  readonly journal: Collection<JournalDoc>;
  readonly usage: Collection<UsageDoc>;
  readonly apiKeys: Collection<ApiKeyDoc>;
  readonly executions: Collection<ExecutionDoc>;
  readonly resources: Collection<ResourceDoc>;
  readonly payments: Collection<PaymentDoc>;
  readonly losses: Collection<LossDoc>;
  readonly topUps: Collection<TopUpDoc>;
  readonly spendPolicies: Collection<SpendPolicyDoc>;
  readonly quotes: Collection<QuoteDoc>;
  readonly spendBuckets: Collection<SpendBucketDoc>;
  readonly unchargedWork: Collection<UnchargedWorkDoc>;

  constructor(
    readonly client: MongoClient,
    readonly db: Db,
  ) {
    this.wallets = db.collection(COLLECTIONS.wallets);
    this.holds = db.collection(COLLECTIONS.holds);
    this.journal = db.collection(COLLECTIONS.journal);
    this.usage = db.collection(COLLECTIONS.usage);
    this.apiKeys = db.collection(COLLECTIONS.apiKeys);
    this.executions = db.collection(COLLECTIONS.executions);
    this.resources = db.collection(COLLECTIONS.resources);
    this.payments = db.collection(COLLECTIONS.payments);
    this.losses = db.collection(COLLECTIONS.platformLosses);
    this.topUps = db.collection(COLLECTIONS.topUps);
    this.spendPolicies = db.collection(COLLECTIONS.spendPolicies);
    this.quotes = db.collection(COLLECTIONS.quotes);
    this.spendBuckets = db.collection(COLLECTIONS.spendBuckets);
    this.unchargedWork = db.collection(COLLECTIONS.unchargedWork);
  }

  /**
   * Runs `fn` in a transaction (retried by the driver on transient conflicts); `Abort` ends it with a
   * value. A duplicate key means a concurrent operation inserted the same record first (two first
   * claims of one Idempotency-Key, two first holds of one execution): `fn` runs again and reads it.
   */
  async transaction<T>(fn: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.client.startSession();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await session.withTransaction(fn, TRANSACTION);
        } catch (err) {
          if (err instanceof Abort) return err.value as T;
          if (isDuplicateKey(err) && attempt < DUPLICATE_KEY_ATTEMPTS) continue;
          throw err;
        }
      }
    } finally {
      await session.endSession();
    }
  }
}
