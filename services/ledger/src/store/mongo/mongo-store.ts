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
// carries a $jsonSchema validator (balance and held >= 0) as a last guard (mongo/schema.ts).
import { MongoClient } from "mongodb";
import { newId } from "@agentic/platform";
import type {
  AbandonCommand,
  ClaimCommand,
  CompleteCommand,
  CompleteExecutionCommand,
  CompleteOutcome,
  CreditMovementCommand,
  CreditMovementResult,
  GrantCommand,
  GrantResult,
  HoldCommand,
  HoldResult,
  LedgerStore,
  SettleCommand,
  SettleResult,
} from "../../domain/ports";
import type { CreateQuoteCommand, CreateQuoteResult, QuoteRecord } from "../../domain/quote";
import type { SpendPolicy, SpendUsage } from "../../domain/spend-policy";
import type { FinishTopUpCommand, StartTopUpCommand, TopUpFinish, TopUpRecord, TopUpStart } from "../../domain/top-up";
import type {
  ApiKeyLimits,
  ApiKeyRecord,
  ChargeTotal,
  ClaimOutcome,
  CreditMovementTotal,
  ExecutionRecord,
  Hold,
  JournalEntry,
  OutgoingPayment,
  OwnedResource,
  PaymentTotal,
  PlatformLoss,
  TimeRange,
  UsageItem,
  UsageQuery,
  Wallet,
} from "../../domain/types";
import { MongoBooks } from "./books";
import { MongoExecutions } from "./executions";
import { MongoKeys } from "./keys";
import { COLLECTIONS, MongoDb } from "./mongo-db";
import { MongoMoney } from "./money";
import { MongoQuotes } from "./quotes";
import { ensureSchema } from "./schema";
import { MongoSpend } from "./spend";
import { MongoTopUps } from "./top-ups";

export { COLLECTIONS } from "./mongo-db";

/** The one document of ledger_meta: the store's identity, written once by the first ledger that connects. */
interface MetaDoc {
  _id: "identity";
  storeId: string;
  createdAt: Date;
}

export interface MongoLedgerStoreOptions {
  uri: string;
  dbName: string;
  /** Server selection timeout for connect and every operation (default 5 s). */
  serverSelectionTimeoutMS?: number;
}

export class MongoLedgerStore implements LedgerStore {
  private readonly keys: MongoKeys;
  private readonly money: MongoMoney;
  private readonly spend: MongoSpend;
  private readonly quotes: MongoQuotes;
  private readonly executions: MongoExecutions;
  private readonly topUps: MongoTopUps;
  private readonly books: MongoBooks;

  private constructor(private readonly m: MongoDb) {
    this.keys = new MongoKeys(m);
    this.money = new MongoMoney(m);
    this.spend = new MongoSpend(m);
    this.quotes = new MongoQuotes(m);
    this.executions = new MongoExecutions(m);
    this.topUps = new MongoTopUps(m);
    this.books = new MongoBooks(m);
  }

  /** The database (tests drop it). */
  get db(): MongoDb["db"] {
    return this.m.db;
  }

  /** Connects, checks the server answers, and creates collections, validator and indexes (idempotent). */
  static async connect(opts: MongoLedgerStoreOptions): Promise<MongoLedgerStore> {
    const client = new MongoClient(opts.uri, {
      appName: "agentic-ledger",
      writeConcern: { w: "majority", journal: true },
      readConcern: { level: "majority" },
      retryWrites: true,
      ignoreUndefined: true, // absent optional fields stay absent instead of becoming null
      serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 5_000,
    });
    await client.connect();
    const store = new MongoLedgerStore(new MongoDb(client, client.db(opts.dbName)));
    try {
      await store.ping();
      await ensureSchema(store.m);
    } catch (err) {
      await client.close();
      throw err;
    }
    return store;
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

  insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }> {
    return this.keys.insertApiKey(record);
  }
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.keys.findApiKeyByHash(keyHash);
  }
  listApiKeys(userId?: string): Promise<ApiKeyRecord[]> {
    return this.keys.listApiKeys(userId);
  }
  revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    return this.keys.revokeApiKey(keyId, now);
  }
  setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null> {
    return this.keys.setApiKeyLimits(keyId, limits);
  }

  getWallet(userId: string): Promise<Wallet> {
    return this.money.getWallet(userId);
  }
  listWallets(): Promise<Wallet[]> {
    return this.money.listWallets();
  }
  grant(cmd: GrantCommand): Promise<GrantResult> {
    return this.money.grant(cmd);
  }
  moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult> {
    return this.money.moveCredits(cmd);
  }
  hold(cmd: HoldCommand): Promise<HoldResult> {
    return this.money.hold(cmd);
  }
  getHold(holdId: string): Promise<Hold | null> {
    return this.money.getHold(holdId);
  }
  settleHold(cmd: SettleCommand): Promise<SettleResult> {
    return this.money.settleHold(cmd);
  }
  listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    return this.money.listExpiredHolds(now, limit);
  }
  listJournal(userId: string): Promise<JournalEntry[]> {
    return this.money.listJournal(userId);
  }

  setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy> {
    return this.spend.setSpendPolicy(policy);
  }
  clearSpendPolicy(keyId: string, agentName?: string): Promise<boolean> {
    return this.spend.clearSpendPolicy(keyId, agentName);
  }
  listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]> {
    return this.spend.listSpendPolicies(keyIds);
  }
  spendUsage(policy: Pick<SpendPolicy, "keyId" | "agentName">, since: Date): Promise<SpendUsage> {
    return this.spend.spendUsage(policy, since);
  }

  createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult> {
    return this.quotes.createQuote(cmd);
  }
  getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null> {
    return this.quotes.getQuote(quoteId);
  }

  claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    return this.executions.claimIdempotencyKey(cmd);
  }
  completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    return this.executions.completeIdempotencyKey(cmd);
  }
  completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome> {
    return this.executions.completeExecution(cmd);
  }
  getExecution(executionId: string): Promise<ExecutionRecord | null> {
    return this.executions.getExecution(executionId);
  }
  listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]> {
    return this.executions.listAbandonedExecutions(now, graceMs, limit);
  }
  abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null> {
    return this.executions.abandonExecution(cmd);
  }
  countIndeterminateExecutions(now: Date): Promise<number> {
    return this.executions.countIndeterminateExecutions(now);
  }

  getTopUp(topUpId: string): Promise<TopUpRecord | null> {
    return this.topUps.getTopUp(topUpId);
  }
  startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart> {
    return this.topUps.startTopUp(cmd);
  }
  finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish> {
    return this.topUps.finishTopUp(cmd);
  }
  listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]> {
    return this.topUps.listStalePendingTopUps(staleBefore, limit);
  }

  listUsage(userId: string, limit: number, query?: UsageQuery): Promise<UsageItem[]> {
    return this.books.listUsage(userId, limit, query);
  }
  getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null> {
    return this.books.getOwnedResource(kind, resourceId);
  }
  listPayments(range: TimeRange): Promise<OutgoingPayment[]> {
    return this.books.listPayments(range);
  }
  listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]> {
    return this.books.listPlatformLosses(range);
  }
  sumCharges(range: TimeRange): Promise<ChargeTotal[]> {
    return this.books.sumCharges(range);
  }
  sumPayments(range: TimeRange): Promise<PaymentTotal[]> {
    return this.books.sumPayments(range);
  }
  sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]> {
    return this.books.sumCreditMovements(range);
  }
}
