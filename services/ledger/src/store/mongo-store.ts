// The production ledger store on MongoDB (official driver). Money moves in multi-document
// transactions (wallet + hold + journal + usage move together) with snapshot reads and majority
// writes, so a replica set is required (a single-node replica set is enough for development).
// Inside a transaction every guard is a conditional write (`balanceCredits: {$gte: amount}`,
// `state: "held"`, an execution's `rev`); concurrent transactions on one wallet, hold or execution
// conflict and the driver retries them. Executions (ledger_executions, one per Idempotency-Key)
// move in the same transactions as the holds of their attempts, so a hold is placed only for an
// execution that may start one and an outcome is recorded with the capture that charges it.
// Single-document operations (API keys, completing an execution outside a settlement) are
// compare-and-set updates.
// The wallets collection also carries a $jsonSchema validator (balance and held >= 0) as a last guard.
import { randomUUID } from "node:crypto";
import { MongoClient, MongoServerError, type ClientSession, type Collection, type Db, type Filter, type TransactionOptions } from "mongodb";
import { newId } from "@agentic/platform";
import { decideQuoteDraw, reservationHoldId, type CreateQuoteCommand, type CreateQuoteResult, type QuoteRecord } from "../domain/quote";
import {
  byPolicyOrder,
  coveringPolicies,
  decideSpend,
  endedDelta,
  heldDelta,
  periodStartDay,
  policyAgentKey,
  spendBucketOf,
  spendPeriod,
  spendUsageOfBuckets,
  type SpendBucket,
  type SpendBucketDelta,
  type SpendPolicy,
  type SpendUsage,
} from "../domain/spend-policy";
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
  StoredResult,
  TimeRange,
  UsageItem,
  UsageQuery,
  Wallet,
} from "../domain/types";
import {
  abandonedExecution,
  bookedPayments,
  completedExecution,
  decideClaim,
  decideCreditMovement,
  decideExecutionHold,
  emptyWallet,
  isAbandoned,
  isPastRetention,
  isReplay,
  movementUsageItem,
  MOVEMENT_JOURNAL_KINDS,
  newClaimedExecution,
  newHold,
  ownedResources,
  platformLosses,
  settledHold,
  settlementEffect,
  usageItemFor,
  type BookedFacts,
} from "../domain/rules";
import {
  TOP_UP_REASON,
  decideTopUpStart,
  finishedTopUp,
  topUpUsageItem,
  type FinishTopUpCommand,
  type StartTopUpCommand,
  type TopUpFinish,
  type TopUpRecord,
  type TopUpStart,
} from "../domain/top-up";
import type {
  AbandonCommand,
  ClaimCommand,
  CompleteCommand,
  CreditMovementCommand,
  CreditMovementResult,
  CompleteExecutionCommand,
  CompleteOutcome,
  GrantCommand,
  GrantResult,
  HoldCommand,
  HoldResult,
  LedgerStore,
  SettleCommand,
  SettleResult,
} from "../domain/ports";

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
  topUps: "ledger_top_ups",
  spendPolicies: "ledger_spend_policies",
  spendBuckets: "ledger_spend_buckets",
  quotes: "ledger_quotes",
} as const;

/** The one document of ledger_meta: the store's identity, written once by the first ledger that connects. */
interface MetaDoc {
  _id: "identity";
  storeId: string;
  createdAt: Date;
}

interface WalletDoc {
  _id: string; // user id
  balanceCredits: number;
  heldCredits: number;
  /** Number of journal entries of this user; each movement takes the next value as its `seq`. */
  journalSeq: number;
  updatedAt: Date;
}

interface HoldDoc extends Omit<Hold, "holdId"> {
  _id: string; // hold id
}

interface JournalDoc extends Omit<JournalEntry, "entryId"> {
  _id: string; // entry id
  /** Per-user order of the append-only journal (from WalletDoc.journalSeq). */
  seq: number;
  reason?: string;
}

interface UsageDoc extends Omit<UsageItem, "holdId" | "kind"> {
  _id: string; // a charge's hold id (one usage item per hold), a credit movement's journal entry id
  /** Absent on items written before credit movements were recorded: those are charges. */
  kind?: UsageItem["kind"];
}

interface ApiKeyDoc extends Omit<ApiKeyRecord, "keyId"> {
  _id: string; // key id
}

interface ExecutionDoc extends Omit<ExecutionRecord, "executionId" | "result"> {
  _id: string; // execution id
  /** Changes on every write; compare-and-set token: every write is conditioned on the rev it read. */
  rev: string;
  /** The body as JSON text, so it is replayed exactly as it was given (any keys, any order). */
  result?: { httpStatus: number; bodyJson?: string };
}

interface ResourceDoc extends OwnedResource {
  _id: string; // resourceDocId(kind, resourceId): one owner per resource
}

interface PaymentDoc extends Omit<OutgoingPayment, "paymentId"> {
  _id: string; // payment id, <hold id>/<position>
}

/** A loss with its payment's fields, so reading losses needs no join. */
interface LossDoc extends Omit<PlatformLoss, "paymentId"> {
  _id: string; // payment id: one loss per payment
}

interface TopUpDoc extends Omit<TopUpRecord, "topUpId"> {
  _id: string; // top-up id: one per payment (network, asset, payer, nonce)
}

interface SpendPolicyDoc extends SpendPolicy {
  _id: string; // JSON [key id, agent name or ""]: one policy per (key, agent)
}

interface SpendBucketDoc extends SpendBucket {
  _id: string; // JSON [key id, day, agent name or "", capability key or ""]
}

interface QuoteDoc extends Omit<QuoteRecord, "quoteId"> {
  _id: string; // quote id
}

const policyDocId = (keyId: string, agentName: string | undefined) => JSON.stringify([keyId, policyAgentKey(agentName)]);

const resourceDocId = (kind: string, resourceId: string) => JSON.stringify([kind, resourceId]);

/** How many running executions listAbandonedExecutions checks per read of their holds. */
const ABANDONED_PAGE = 100;

/** Compare-and-set passes before an operation on one execution gives up (each lost pass means another write won). */
const CAS_ATTEMPTS = 10;

/** Runs of a transaction that failed on a duplicate key (a concurrent first insert won) before giving up. */
const DUPLICATE_KEY_ATTEMPTS = 5;

const TRANSACTION: TransactionOptions = {
  readConcern: { level: "snapshot" },
  writeConcern: { w: "majority", journal: true },
  readPreference: "primary",
};

/** Thrown inside a transaction to abort it and hand a result to the caller. */
class Abort<T> extends Error {
  constructor(readonly value: T) {
    super("transaction aborted on purpose");
  }
}

const isDuplicateKey = (err: unknown) => err instanceof MongoServerError && err.code === 11000;

export interface MongoLedgerStoreOptions {
  uri: string;
  dbName: string;
  /** Server selection timeout for connect and every operation (default 5 s). */
  serverSelectionTimeoutMS?: number;
}

export class MongoLedgerStore implements LedgerStore {
  private readonly wallets: Collection<WalletDoc>;
  private readonly holds: Collection<HoldDoc>;
  private readonly journal: Collection<JournalDoc>;
  private readonly usage: Collection<UsageDoc>;
  private readonly apiKeys: Collection<ApiKeyDoc>;
  private readonly executions: Collection<ExecutionDoc>;
  private readonly resources: Collection<ResourceDoc>;
  private readonly payments: Collection<PaymentDoc>;
  private readonly losses: Collection<LossDoc>;
  private readonly topUps: Collection<TopUpDoc>;
  private readonly spendPolicies: Collection<SpendPolicyDoc>;
  private readonly quotes: Collection<QuoteDoc>;
  private readonly spendBuckets: Collection<SpendBucketDoc>;

  private constructor(
    private readonly client: MongoClient,
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
    const store = new MongoLedgerStore(client, client.db(opts.dbName));
    try {
      await store.ping();
      await store.ensureSchema();
    } catch (err) {
      await client.close();
      throw err;
    }
    return store;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async storeId(): Promise<string> {
    const meta = this.db.collection<MetaDoc>(COLLECTIONS.meta);
    // Insert-if-absent: every ledger on this database agrees on the first id written.
    await meta.updateOne({ _id: "identity" }, { $setOnInsert: { storeId: newId("store"), createdAt: new Date() } }, { upsert: true });
    const doc = await meta.findOne({ _id: "identity" });
    if (!doc) throw new Error("ledger_meta identity missing after upsert");
    return doc.storeId;
  }

  private async ensureSchema(): Promise<void> {
    const nonNegative = { bsonType: ["int", "long", "double", "decimal"], minimum: 0 };
    try {
      await this.db.createCollection(COLLECTIONS.wallets, {
        validator: {
          $jsonSchema: {
            bsonType: "object",
            required: ["balanceCredits", "heldCredits"],
            properties: { balanceCredits: nonNegative, heldCredits: nonNegative },
          },
        },
        validationAction: "error",
      });
    } catch (err) {
      if (!(err instanceof MongoServerError && err.codeName === "NamespaceExists")) throw err;
    }
    await Promise.all([
      this.holds.createIndexes([
        // The sweeper's query; holds are otherwise read by _id only.
        { key: { expiresAt: 1 }, name: "held_by_expiry", partialFilterExpression: { state: "held" } },
        // The reconciliation's charges: captured holds by when they were applied.
        { key: { settledAt: 1 }, name: "captured_by_settled_at", partialFilterExpression: { state: "captured" } },
      ]),
      this.spendPolicies.createIndexes([{ key: { keyId: 1 }, name: "by_key" }]),
      // A spend policy's usage: its key's buckets from the period's first day.
      this.spendBuckets.createIndexes([{ key: { keyId: 1, day: 1 }, name: "by_key_and_day" }]),
      // Resources are read by _id (kind, resource id); payments and losses by time range.
      this.payments.createIndexes([{ key: { bookedAt: 1 }, name: "by_booked_at" }]),
      this.losses.createIndexes([{ key: { createdAt: 1 }, name: "by_created_at" }]),
      // Top-ups are read by _id; the reconciler reads pending ones by last attempt.
      this.topUps.createIndexes([{ key: { attemptedAt: 1 }, name: "pending_by_attempt", partialFilterExpression: { state: "pending" } }]),
      this.journal.createIndexes([
        // At most one movement of each kind per grant or hold id: a second capture cannot be written.
        { key: { referenceId: 1, kind: 1 }, name: "one_movement_per_reference", unique: true },
        { key: { userId: 1, seq: 1 }, name: "by_user_in_order", unique: true },
        // The reconciliation's credit movements (grants, refunds, adjustments) by when they were written.
        { key: { kind: 1, createdAt: 1 }, name: "by_kind_and_time" },
      ]),
      // Exactly listUsage's filter and sort ({createdAt: -1, _id: -1}), so the sort needs no memory, also
      // after each equality filter; its cursor and time range are ranges on createdAt and _id.
      this.usage.createIndexes([
        { key: { userId: 1, createdAt: -1, _id: -1 }, name: "by_user_newest_first_then_id" },
        { key: { userId: 1, kind: 1, createdAt: -1, _id: -1 }, name: "by_user_kind_newest_first" },
        { key: { userId: 1, capabilityKey: 1, createdAt: -1, _id: -1 }, name: "by_user_capability_newest_first" },
        { key: { userId: 1, agentName: 1, createdAt: -1, _id: -1 }, name: "by_user_agent_newest_first" },
        // One credit movement per reference, whatever its kind: of two concurrent first writes one inserts.
        { key: { reference: 1 }, name: "one_item_per_reference", unique: true, partialFilterExpression: { reference: { $exists: true } } },
      ]),
      this.apiKeys.createIndexes([
        { key: { keyHash: 1 }, name: "one_record_per_key", unique: true },
        { key: { userId: 1, createdAt: 1 }, name: "by_user" },
      ]),
      this.executions.createIndexes([
        // One execution per (user, Idempotency-Key): of two concurrent first claims, one insert wins.
        // Partial: executions without a key have no such field (absent, never null: ignoreUndefined).
        {
          key: { userId: 1, idempotencyKey: 1 },
          name: "one_execution_per_key",
          unique: true,
          partialFilterExpression: { idempotencyKey: { $exists: true } },
        },
        // listAbandonedExecutions and countIndeterminateExecutions: running, by lease.
        { key: { state: 1, leaseExpiresAt: 1 }, name: "by_state_and_lease" },
        // Purges records past their retention; until the TTL monitor runs they are read as absent.
        { key: { expiresAt: 1 }, name: "ttl", expireAfterSeconds: 0 },
      ]),
    ]);
  }

  /**
   * Runs `fn` in a transaction (retried by the driver on transient conflicts); `Abort` ends it with a
   * value. A duplicate key means a concurrent operation inserted the same record first (two first
   * claims of one Idempotency-Key, two first holds of one execution): `fn` runs again and reads it.
   */
  private async transaction<T>(fn: (session: ClientSession) => Promise<T>): Promise<T> {
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

  /** Moves one journal entry's deltas on the wallet (guarded so neither goes below zero) and appends it. */
  private async move(
    session: ClientSession,
    entry: Omit<JournalDoc, "_id" | "seq">,
    opts: { upsert?: boolean } = {},
  ): Promise<{ wallet: Wallet; entry: JournalEntry }> {
    const guard: Record<string, unknown> = { _id: entry.userId };
    if (entry.amountCredits < 0) guard.balanceCredits = { $gte: -entry.amountCredits };
    if (entry.heldDeltaCredits < 0) guard.heldCredits = { $gte: -entry.heldDeltaCredits };
    const wallet = await this.wallets.findOneAndUpdate(
      guard,
      {
        $inc: { balanceCredits: entry.amountCredits, heldCredits: entry.heldDeltaCredits, journalSeq: 1 },
        $set: { updatedAt: entry.createdAt },
      },
      { session, upsert: opts.upsert ?? false, returnDocument: "after" },
    );
    if (!wallet) throw new Abort(null);
    const doc: JournalDoc = { ...entry, _id: newId("journal"), seq: wallet.journalSeq };
    await this.journal.insertOne(doc, { session });
    return { wallet: toWallet(wallet), entry: toEntry(doc) };
  }

  async insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }> {
    const { keyId, ...rest } = record;
    try {
      await this.apiKeys.insertOne({ _id: keyId, ...rest });
      return { status: "created", record: { ...record } };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await this.findApiKeyByHash(record.keyHash);
      if (!existing) throw err;
      return { status: "exists", record: existing };
    }
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const doc = await this.apiKeys.findOne({ keyHash });
    return doc ? toApiKey(doc) : null;
  }

  async listApiKeys(userId?: string): Promise<ApiKeyRecord[]> {
    const docs = await this.apiKeys
      .find(userId === undefined ? {} : { userId })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    return docs.map(toApiKey);
  }

  async revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    const revoked = await this.apiKeys.findOneAndUpdate(
      { _id: keyId, revokedAt: { $exists: false } },
      { $set: { revokedAt: now } },
      { returnDocument: "after" },
    );
    if (revoked) return toApiKey(revoked);
    const doc = await this.apiKeys.findOne({ _id: keyId });
    return doc ? toApiKey(doc) : null;
  }

  async setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null> {
    // The whole sub-document is replaced (or removed), never merged: the call says all the limits.
    const update = limits ? { $set: { limits: { ...limits } } } : { $unset: { limits: "" as const } };
    const doc = await this.apiKeys.findOneAndUpdate({ _id: keyId }, update, { returnDocument: "after" });
    return doc ? toApiKey(doc) : null;
  }

  async getWallet(userId: string): Promise<Wallet> {
    return this.walletIn(userId);
  }

  async getTopUp(topUpId: string): Promise<TopUpRecord | null> {
    const doc = await this.topUps.findOne({ _id: topUpId });
    return doc ? toTopUp(doc) : null;
  }

  async startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart> {
    return this.transaction(async (session): Promise<TopUpStart> => {
      const doc = await this.topUps.findOne({ _id: cmd.record.topUpId }, { session });
      const existing = doc ? toTopUp(doc) : null;
      const decision = decideTopUpStart(existing, cmd);
      if (decision.action === "exists") return { status: "exists", record: existing! };
      if (decision.action === "retry") {
        // Conditioned on the attempt it read: of two concurrent takeovers one matches.
        const taken = await this.topUps.updateOne(
          { _id: decision.record.topUpId, state: "pending", attemptedAt: existing!.attemptedAt },
          { $set: { attemptedAt: decision.record.attemptedAt, attempts: decision.record.attempts } },
          { session },
        );
        return taken.modifiedCount === 1 ? { status: "retry", record: decision.record } : { status: "exists", record: existing! };
      }
      const { topUpId, ...rest } = cmd.record;
      // A concurrent first insert of the same payment is a duplicate key: the transaction reruns and reads it.
      await this.topUps.insertOne({ _id: topUpId, ...rest }, { session });
      return { status: "started", record: { ...cmd.record } };
    });
  }

  async finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish> {
    return this.transaction(async (session): Promise<TopUpFinish> => {
      const doc = await this.topUps.findOne({ _id: cmd.topUpId }, { session });
      if (!doc) return { status: "unknown" };
      const existing = toTopUp(doc);
      if (existing.state !== "pending") return { status: "already", record: existing };
      const record = finishedTopUp(existing, cmd.outcome, cmd.now);
      const { topUpId, ...rest } = record;
      const ended = await this.topUps.replaceOne({ _id: topUpId, state: "pending" }, rest, { session });
      if (ended.modifiedCount !== 1) throw new Abort<TopUpFinish>({ status: "already", record: existing });
      if (record.state !== "credited") return { status: "finished", record };
      // One mechanism for money in: a grant entry keyed by the top-up id (unique on reference and kind).
      const moved = await this.move(
        session,
        {
          userId: record.userId,
          kind: "grant",
          amountCredits: record.amountCredits,
          heldDeltaCredits: 0,
          referenceId: topUpId,
          createdAt: cmd.now,
          reason: TOP_UP_REASON,
        },
        { upsert: true },
      );
      const { holdId: _none, ...item } = topUpUsageItem(moved.entry, record);
      await this.usage.insertOne({ _id: item.usageId, ...item }, { session });
      return { status: "finished", record, ...moved };
    });
  }

  async listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]> {
    const docs = await this.topUps
      .find({ state: "pending", attemptedAt: { $lte: staleBefore } })
      .sort({ attemptedAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toTopUp);
  }

  private async walletIn(userId: string, session?: ClientSession): Promise<Wallet> {
    const doc = await this.wallets.findOne({ _id: userId }, { session });
    return doc ? toWallet(doc) : emptyWallet(userId);
  }

  async listWallets(): Promise<Wallet[]> {
    return (await this.wallets.find({}).sort({ _id: 1 }).toArray()).map(toWallet);
  }

  async grant(cmd: GrantCommand): Promise<GrantResult> {
    return this.transaction(async (session): Promise<GrantResult> => {
      const existing = await this.journal.findOne({ referenceId: cmd.grantId, kind: "grant" }, { session });
      if (existing) {
        if (!isReplay(existing, cmd)) return { status: "conflict", entry: toEntry(existing) };
        return { status: "replayed", wallet: await this.walletIn(cmd.userId, session), entry: toEntry(existing) };
      }
      const moved = await this.move(
        session,
        {
          userId: cmd.userId,
          kind: "grant",
          amountCredits: cmd.amountCredits,
          heldDeltaCredits: 0,
          referenceId: cmd.grantId,
          createdAt: cmd.now,
          reason: cmd.reason,
        },
        { upsert: true },
      );
      return { status: "granted", ...moved };
    });
  }

  async moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult> {
    return this.transaction(async (session): Promise<CreditMovementResult> => {
      // A grant id is a reference too: one movement per reference, whatever its kind.
      const existing = await this.journal.findOne({ referenceId: cmd.reference, kind: { $in: [...MOVEMENT_JOURNAL_KINDS] } }, { session });
      const wallet = await this.walletIn(cmd.userId, session);
      const decision = decideCreditMovement(existing ? toEntry(existing) : null, cmd, wallet.balanceCredits);
      if (decision.action === "conflict") return { status: "conflict", entry: decision.entry };
      if (decision.action === "replay") return { status: "replayed", wallet, entry: decision.entry };
      if (decision.action === "insufficient") return { status: "insufficient", wallet };
      let moved: { wallet: Wallet; entry: JournalEntry };
      try {
        // A negative amount is guarded by the conditional update ($gte), whatever was read above.
        moved = await this.move(
          session,
          {
            userId: cmd.userId,
            kind: cmd.kind,
            amountCredits: cmd.amountCredits,
            heldDeltaCredits: 0,
            referenceId: cmd.reference,
            createdAt: cmd.now,
            reason: cmd.reason,
            operator: cmd.operator,
            ...(cmd.operatorName ? { operatorName: cmd.operatorName } : {}),
          },
          { upsert: cmd.amountCredits > 0 },
        );
      } catch (err) {
        if (err instanceof Abort)
          throw new Abort<CreditMovementResult>({ status: "insufficient", wallet: await this.walletIn(cmd.userId, session) });
        throw err;
      }
      // The same reference written concurrently under another kind collides on one_item_per_reference:
      // a duplicate key, and the transaction runs again and reads it.
      const { holdId: _none, ...item } = movementUsageItem(moved.entry, cmd);
      await this.usage.insertOne({ _id: item.usageId, ...item }, { session });
      return { status: "recorded", ...moved };
    });
  }

  async hold(cmd: HoldCommand): Promise<HoldResult> {
    return this.transaction(async (session): Promise<HoldResult> => {
      const existing = await this.holds.findOne({ _id: cmd.holdId }, { session });
      if (existing) {
        const hold = toHold(existing);
        if (!isReplay(hold, cmd)) return { status: "conflict", hold };
        return { status: "replayed", hold, wallet: await this.walletIn(hold.userId, session) };
      }
      // A quote to draw must be the user's, open and of this amount.
      const quoteDoc = cmd.quoteId !== undefined ? await this.quotes.findOne({ _id: cmd.quoteId }, { session }) : null;
      const quote = quoteDoc ? toQuote(quoteDoc) : null;
      const reservationDoc = quote ? await this.holds.findOne({ _id: quote.reservationHoldId }, { session }) : null;
      const reservation = reservationDoc ? toHold(reservationDoc) : null;
      if (cmd.quoteId !== undefined) {
        const refused = decideQuoteDraw(quote, reservation, cmd);
        if (refused) return { status: "quote_refused", reason: refused };
      }
      // The execution's fence first: an attempt that may not start is refused whatever the balance.
      let execution: { record: ExecutionRecord; previous: ExecutionDoc | null } | undefined;
      if (cmd.execution) {
        const previous = await this.executions.findOne({ _id: cmd.execution.executionId }, { session });
        const live = previous && !isPastRetention(previous, cmd.now) ? toExecution(previous) : null;
        const decision = decideExecutionHold(live, { userId: cmd.userId, holdId: cmd.holdId, execution: cmd.execution, now: cmd.now });
        if (decision.action === "fenced") return { status: "fenced", reason: decision.reason };
        execution = { record: decision.record, previous };
      }
      // Spend policies read in this snapshot transaction. Every hold a policy counts is its key's user's, and
      // every hold writes that user's wallet below: two concurrent holds conflict there, one is retried and
      // reads the other's hold, so no interleaving can overtake a limit.
      if (cmd.spend) {
        const who = cmd.spend;
        const docs = await this.spendPolicies
          .find({ _id: { $in: [policyDocId(who.keyId, undefined), policyDocId(who.keyId, who.agentName)] } }, { session })
          .toArray();
        const checks = [];
        for (const policy of coveringPolicies(docs.map(toSpendPolicy), who)) {
          checks.push({ policy, usage: await this.usageOf(policy, spendPeriod(policy, cmd.now).start, session) });
        }
        const refusal = decideSpend(checks, who, cmd.amountCredits, cmd.now);
        if (refusal) return { status: "spend_refused", refusal };
      }
      if (quote && reservation) {
        // The reservation ends and its credits go straight into this hold, in this one transaction.
        const effect = settlementEffect(reservation, "release", 0);
        const settled = settledHold(reservation, effect, cmd.now);
        const updated = await this.holds.updateOne(
          { _id: reservation.holdId, state: "held" },
          { $set: { state: settled.state, settledAt: settled.settledAt } },
          { session },
        );
        if (updated.modifiedCount !== 1) throw new Error(`quote reservation ${reservation.holdId} changed during hold ${cmd.holdId}`);
        await this.move(session, {
          userId: reservation.userId,
          kind: effect.kind,
          amountCredits: effect.amountCredits,
          heldDeltaCredits: effect.heldDeltaCredits,
          referenceId: reservation.holdId,
          createdAt: cmd.now,
        });
        await this.moveSpend(reservation, endedDelta(reservation, settled), session);
        const used = await this.quotes.updateOne(
          { _id: cmd.quoteId!, usedByHoldId: { $exists: false } },
          { $set: { usedByHoldId: cmd.holdId } },
          { session },
        );
        // The reservation's state guards the draw already; a quote marked used by another hold is the same race, seen twice.
        if (used.modifiedCount !== 1) throw new Error(`quote ${cmd.quoteId} was used during hold ${cmd.holdId}`);
      }
      const hold = newHold(cmd);
      let moved: { wallet: Wallet };
      try {
        // The conditional update is the balance check: it matches no wallet when the balance is
        // short or the user has no wallet (no upsert), and a concurrent hold that committed first wins.
        moved = await this.move(session, {
          userId: cmd.userId,
          kind: "hold",
          amountCredits: -cmd.amountCredits,
          heldDeltaCredits: cmd.amountCredits,
          referenceId: cmd.holdId,
          createdAt: cmd.now,
        });
      } catch (err) {
        if (err instanceof Abort) throw new Abort<HoldResult>({ status: "insufficient", wallet: await this.walletIn(cmd.userId, session) });
        throw err;
      }
      await this.moveSpend(hold, heldDelta(hold.amountCredits), session);
      const { holdId, ...doc } = hold;
      await this.holds.insertOne({ _id: holdId, ...doc }, { session });
      // Marks the execution running with this hold (or creates it, without a key), in the same transaction.
      if (execution && !(await this.putExecution(execution.record, execution.previous, session))) {
        throw new Error(`execution ${execution.record.executionId} changed during hold ${holdId}`);
      }
      return { status: "created", hold, wallet: moved.wallet };
    });
  }

  async getHold(holdId: string): Promise<Hold | null> {
    const doc = await this.holds.findOne({ _id: holdId });
    return doc ? toHold(doc) : null;
  }

  async setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy> {
    const { createdAt, ...rest } = policy;
    // The first createdAt stays: a `none` allowance keeps counting from it across updates.
    const unset: Record<string, ""> = Object.fromEntries(
      (["agentName", "budgetCredits", "maxPriceCredits"] as const).filter((f) => rest[f] === undefined).map((f) => [f, ""] as const),
    );
    const doc = await this.spendPolicies.findOneAndUpdate(
      { _id: policyDocId(policy.keyId, policy.agentName) },
      { $set: rest, $setOnInsert: { createdAt }, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) },
      { upsert: true, returnDocument: "after" },
    );
    if (!doc) throw new Error(`spend policy of ${policy.keyId} missing after upsert`);
    return toSpendPolicy(doc);
  }

  async clearSpendPolicy(keyId: string, agentName?: string): Promise<boolean> {
    return (await this.spendPolicies.deleteOne({ _id: policyDocId(keyId, agentName) })).deletedCount === 1;
  }

  async listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]> {
    const docs = await this.spendPolicies.find({ keyId: { $in: [...keyIds] } }).toArray();
    return docs.map(toSpendPolicy).sort(byPolicyOrder);
  }

  async spendUsage(policy: Pick<SpendPolicy, "keyId" | "agentName">, since: Date): Promise<SpendUsage> {
    return this.usageOf(policy, since);
  }

  async createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult> {
    return this.transaction(async (session): Promise<CreateQuoteResult> => {
      const existing = await this.quotes.findOne({ _id: cmd.quoteId }, { session });
      if (existing) {
        const quote = toQuote(existing);
        if (!isReplay(quote, cmd)) return { status: "conflict", quote };
        return { status: "replayed", quote, wallet: await this.walletIn(quote.userId, session) };
      }
      const { now, quoteId, ...fields } = cmd;
      const holdId = reservationHoldId(quoteId);
      let moved: { wallet: Wallet };
      try {
        moved = await this.move(session, {
          userId: cmd.userId,
          kind: "hold",
          amountCredits: -cmd.amountCredits,
          heldDeltaCredits: cmd.amountCredits,
          referenceId: holdId,
          createdAt: now,
        });
      } catch (err) {
        if (err instanceof Abort)
          throw new Abort<CreateQuoteResult>({ status: "insufficient", wallet: await this.walletIn(cmd.userId, session) });
        throw err;
      }
      const { holdId: _id, ...hold } = newHold({ ...cmd, holdId });
      await this.holds.insertOne({ _id, ...hold }, { session });
      const quote: QuoteRecord = { quoteId, ...fields, reservationHoldId: holdId };
      await this.quotes.insertOne({ ...fields, reservationHoldId: holdId, _id: quoteId }, { session });
      return { status: "created", quote, wallet: moved.wallet };
    });
  }

  async getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null> {
    const doc = await this.quotes.findOne({ _id: quoteId });
    if (!doc) return null;
    const reservation = await this.holds.findOne({ _id: doc.reservationHoldId });
    return { quote: toQuote(doc), reservation: reservation ? toHold(reservation) : null };
  }

  /** What the holds a policy covers spent since `since`'s day, from its buckets (inside the hold's transaction when `session` is given). */
  private async usageOf(policy: Pick<SpendPolicy, "keyId" | "agentName">, since: Date, session?: ClientSession): Promise<SpendUsage> {
    const filter: Filter<SpendBucketDoc> = {
      keyId: policy.keyId,
      day: { $gte: periodStartDay(since) },
      ...(policy.agentName !== undefined ? { agentName: policy.agentName } : {}),
    };
    return spendUsageOfBuckets(await this.spendBuckets.find(filter, { session }).toArray());
  }

  /** Moves the spend bucket of `hold` (none without spend attribution) by `delta`: created by a new hold, updated by its ending. */
  private async moveSpend(hold: Hold, delta: SpendBucketDelta, session: ClientSession): Promise<void> {
    const at = spendBucketOf(hold);
    if (!at) return;
    await this.spendBuckets.updateOne(
      { _id: JSON.stringify([at.keyId, at.day, at.agentName, at.capabilityKey]) },
      { $inc: { ...delta }, $setOnInsert: { ...at } },
      { session, upsert: delta.heldCount > 0 },
    );
  }

  async settleHold(cmd: SettleCommand): Promise<SettleResult> {
    return this.transaction(async (session): Promise<SettleResult> => {
      const doc = await this.holds.findOne({ _id: cmd.holdId }, { session });
      if (!doc) return { status: "unknown_hold" };
      const hold = toHold(doc);
      if (hold.userId !== cmd.userId) return { status: "user_mismatch", hold };
      if (hold.state !== "held") {
        return {
          status: "already_settled",
          hold,
          usageRecorded: await this.recordUsage(hold, cmd, session),
          booked: await this.book(hold, cmd, session),
        };
      }

      const effect = settlementEffect(hold, cmd.kind, cmd.capturedCredits);
      const settled = settledHold(hold, effect, cmd.now);
      const updated = await this.holds.updateOne(
        { _id: hold.holdId, state: "held" },
        { $set: { state: settled.state, capturedCredits: settled.capturedCredits, settledAt: settled.settledAt } },
        { session },
      );
      if (updated.modifiedCount !== 1) throw new Error(`hold ${hold.holdId} changed during its settlement`);
      const moved = await this.move(session, {
        userId: hold.userId,
        kind: effect.kind,
        amountCredits: effect.amountCredits,
        heldDeltaCredits: effect.heldDeltaCredits,
        referenceId: hold.holdId,
        createdAt: cmd.now,
      }).catch((err: unknown) => {
        if (err instanceof Abort) throw new Error(`ledger invariant: wallet ${hold.userId} holds less than hold ${hold.holdId}`);
        throw err;
      });
      await this.moveSpend(hold, endedDelta(hold, settled), session);
      const usageRecorded = await this.recordUsage(settled, cmd, session);
      const booked = await this.book(settled, cmd, session);
      if (cmd.outcome && settled.executionId) {
        // The outcome ends the execution in the same transaction as the charge (unless it had ended).
        const doc = await this.executions.findOne({ _id: settled.executionId }, { session });
        const decision = completion(doc, settled.userId, cmd.outcome, cmd.now);
        if (decision.outcome === "completed" && !(await this.putExecution(decision.record, decision.previous, session))) {
          throw new Error(`execution ${settled.executionId} changed during the settlement of hold ${hold.holdId}`);
        }
      }
      return { status: "applied", hold: settled, wallet: moved.wallet, usageRecorded, booked };
    });
  }

  /**
   * Books what a settlement of the ended `hold` carries, each once, inside the settlement's
   * transaction (insert-if-absent upserts on their ids): its payments, the loss of each when the hold
   * charged nothing, its resources (the first owner stays). Returns what was new.
   */
  private async book(hold: Hold, cmd: SettleCommand, session: ClientSession): Promise<BookedFacts> {
    const booked: BookedFacts = { payments: [], losses: [], resourceConflicts: [] };
    const carried: OutgoingPayment[] = [];
    for (const payment of bookedPayments(hold, cmd.payments ?? [], cmd.now)) {
      const { paymentId, ...doc } = payment;
      const written = await this.payments.updateOne({ _id: paymentId }, { $setOnInsert: doc }, { upsert: true, session });
      if (written.upsertedCount === 1) {
        booked.payments.push(payment);
        carried.push(payment);
      } else {
        const existing = await this.payments.findOne({ _id: paymentId }, { session });
        if (!existing) throw new Error(`payment ${paymentId} vanished during the settlement of hold ${hold.holdId}`);
        carried.push(toPayment(existing));
      }
    }
    for (const loss of platformLosses(hold, cmd.kind, carried, cmd.usage?.errorCode, cmd.now)) {
      const { paymentId, ...doc } = loss;
      const written = await this.losses.updateOne({ _id: paymentId }, { $setOnInsert: doc }, { upsert: true, session });
      if (written.upsertedCount === 1) booked.losses.push(loss);
    }
    for (const resource of ownedResources(hold, cmd.resources ?? [], cmd.now)) {
      const _id = resourceDocId(resource.kind, resource.resourceId);
      const written = await this.resources.updateOne({ _id }, { $setOnInsert: resource }, { upsert: true, session });
      if (written.upsertedCount === 1) continue;
      const owner = await this.resources.findOne({ _id }, { session });
      if (owner && owner.userId !== resource.userId) booked.resourceConflicts.push(toResource(owner));
    }
    return booked;
  }

  async getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null> {
    const doc = await this.resources.findOne({ _id: resourceDocId(kind, resourceId) });
    return doc ? toResource(doc) : null;
  }

  async listPayments(range: TimeRange): Promise<OutgoingPayment[]> {
    const docs = await this.payments
      .find({ bookedAt: { $gte: range.from, $lt: range.to } })
      .sort({ bookedAt: 1, _id: 1 })
      .toArray();
    return docs.map(toPayment);
  }

  async listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]> {
    const docs = await this.losses
      .find({ createdAt: { $gte: range.from, $lt: range.to } })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    return docs.map(({ _id, ...loss }) => ({ paymentId: _id, ...loss }));
  }

  async sumCharges(range: TimeRange): Promise<ChargeTotal[]> {
    const rows = await this.holds
      .aggregate<{ _id: { day: string; routeKey: string }; charged: number; n: number }>([
        { $match: { state: "captured", settledAt: { $gte: range.from, $lt: range.to } } },
        {
          $group: {
            _id: { day: { $dateToString: { format: "%Y-%m-%d", date: "$settledAt", timezone: "UTC" } }, routeKey: "$routeKey" },
            charged: { $sum: "$capturedCredits" },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray();
    return rows.map((r) => ({ day: r._id.day, routeKey: r._id.routeKey, chargedCredits: Number(r.charged), captures: Number(r.n) }));
  }

  async sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]> {
    const rows = await this.journal
      .aggregate<{ _id: { day: string; kind: CreditMovementTotal["kind"] }; n: number; added: number; removed: number }>([
        { $match: { kind: { $in: [...MOVEMENT_JOURNAL_KINDS] }, createdAt: { $gte: range.from, $lt: range.to } } },
        {
          $group: {
            _id: { day: { $dateToString: { format: "%Y-%m-%d", date: "$createdAt", timezone: "UTC" } }, kind: "$kind" },
            n: { $sum: 1 },
            added: { $sum: { $cond: [{ $gt: ["$amountCredits", 0] }, "$amountCredits", 0] } },
            removed: { $sum: { $cond: [{ $lt: ["$amountCredits", 0] }, { $subtract: [0, "$amountCredits"] }, 0] } },
          },
        },
      ])
      .toArray();
    return rows.map((r) => ({
      day: r._id.day,
      kind: r._id.kind,
      movements: Number(r.n),
      addedCredits: Number(r.added),
      removedCredits: Number(r.removed),
    }));
  }

  async sumPayments(range: TimeRange): Promise<PaymentTotal[]> {
    const rows = await this.payments
      .aggregate<{ _id: { day: string; routeKey: string; settlement: PaymentTotal["settlement"] }; amount: number; n: number }>([
        { $match: { bookedAt: { $gte: range.from, $lt: range.to } } },
        {
          $group: {
            _id: {
              day: { $dateToString: { format: "%Y-%m-%d", date: "$bookedAt", timezone: "UTC" } },
              routeKey: "$routeKey",
              settlement: "$settlement",
            },
            amount: { $sum: "$amountMicroUsd" },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray();
    return rows.map((r) => ({
      day: r._id.day,
      routeKey: r._id.routeKey,
      settlement: r._id.settlement,
      amountMicroUsd: Number(r.amount),
      payments: Number(r.n),
    }));
  }

  /** Inserts the hold's usage item unless one exists (upsert on the hold id); true when inserted. */
  private async recordUsage(hold: Hold, cmd: SettleCommand, session: ClientSession): Promise<boolean> {
    if (!cmd.usage) return false;
    const { holdId: _same, ...item } = usageItemFor(hold, cmd.usage);
    const result = await this.usage.updateOne({ _id: hold.holdId }, { $setOnInsert: item }, { upsert: true, session });
    return result.upsertedCount === 1;
  }

  async listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    const docs = await this.holds
      .find({ state: "held", expiresAt: { $lte: now } })
      .sort({ expiresAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toHold);
  }

  async listUsage(userId: string, limit: number, query: UsageQuery = {}): Promise<UsageItem[]> {
    const filter: Filter<UsageDoc> = { userId };
    // Items written before kinds existed have none: they are charges.
    if (query.kind !== undefined)
      filter.kind = query.kind === "charge" ? { $in: ["charge", null as unknown as UsageItem["kind"]] } : query.kind;
    if (query.capabilityKey !== undefined) filter.capabilityKey = query.capabilityKey;
    if (query.agentName !== undefined) filter.agentName = query.agentName;
    if (query.from || query.to) filter.createdAt = { ...(query.from ? { $gte: query.from } : {}), ...(query.to ? { $lt: query.to } : {}) };
    if (query.after)
      filter.$or = [{ createdAt: { $lt: query.after.createdAt } }, { createdAt: query.after.createdAt, _id: { $lt: query.after.key } }];
    const docs = await this.usage.find(filter).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
    return docs.map(toUsage);
  }

  async listJournal(userId: string): Promise<JournalEntry[]> {
    return (await this.journal.find({ userId }).sort({ seq: 1 }).toArray()).map(toEntry);
  }

  async claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    return this.transaction(async (session): Promise<ClaimOutcome> => {
      const existing = await this.executions.findOne({ userId: cmd.userId, idempotencyKey: cmd.key }, { session });
      const decision = decideClaim(existing ? toExecution(existing) : null, cmd);
      if (decision.action === "answer") return decision.outcome;
      if (existing) {
        // take_over: a claim whose lease ran out with nothing held. create: a record past its
        // retention that the TTL monitor has not removed yet. Either way the old record (and its
        // execution id) goes, conditioned on still being what was read, before the new one is inserted.
        const stale: Filter<ExecutionDoc> =
          decision.action === "take_over" ? { state: "claimed", leaseExpiresAt: { $lte: cmd.now } } : { expiresAt: { $lte: cmd.now } };
        const removed = await this.executions.deleteOne({ _id: existing._id, rev: existing.rev, ...stale }, { session });
        if (removed.deletedCount !== 1) throw new Error(`execution ${existing._id} changed during a claim of its Idempotency-Key`);
      }
      // A concurrent first claim of the same key collides on one_execution_per_key: a write conflict
      // the driver retries, or a duplicate key the transaction helper retries; either way the next
      // run reads the winner's execution and answers with it.
      const record = newClaimedExecution(cmd);
      await this.executions.insertOne(toExecutionDoc(record), { session });
      return { state: "claimed", executionId: record.executionId };
    });
  }

  async completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    return this.complete({ userId: cmd.userId, idempotencyKey: cmd.key }, cmd.userId, cmd.result, cmd.now);
  }

  async completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome> {
    return this.complete({ _id: cmd.executionId }, cmd.userId, cmd.result, cmd.now);
  }

  /** Ends the execution `filter` finds with `result`: compare-and-set on its rev, so the first completion wins. */
  private async complete(filter: Filter<ExecutionDoc>, userId: string, result: StoredResult, now: Date): Promise<CompleteOutcome> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const doc = await this.executions.findOne(filter);
      const decision = completion(doc, userId, result, now);
      if (decision.outcome !== "completed") return decision.outcome;
      if (await this.putExecution(decision.record, decision.previous)) return "completed";
      // Written by someone else since it was read (a hold joined it, or it was completed): read again.
    }
    throw new Error("execution completion lost too many races");
  }

  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    const doc = await this.executions.findOne({ _id: executionId });
    return doc ? toExecution(doc) : null;
  }

  async listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]> {
    const found: ExecutionRecord[] = [];
    if (limit <= 0) return found;
    // Running past lease and grace (by_state_and_lease), oldest lease first; those with a hold still
    // held are skipped, so the candidates are read a page at a time with one read of their holds.
    const cursor = this.executions
      .find({ state: "running", leaseExpiresAt: { $lte: new Date(now.getTime() - graceMs) } })
      .sort({ leaseExpiresAt: 1 })
      .batchSize(ABANDONED_PAGE);
    let page: ExecutionDoc[] = [];
    const check = async () => {
      const states = await this.holdStates(page.flatMap((doc) => doc.holdIds));
      for (const doc of page) {
        const record = toExecution(doc);
        if (found.length < limit && isAbandoned(record, record.holdIds.map(states), now, graceMs)) found.push(record);
      }
      page = [];
    };
    for await (const doc of cursor) {
      page.push(doc);
      if (page.length < ABANDONED_PAGE) continue;
      await check();
      if (found.length === limit) break; // leaving the loop closes the cursor
    }
    if (page.length > 0) await check();
    return found;
  }

  async abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null> {
    // One transaction: its holds are read in the same snapshot, and a hold placed for it meanwhile
    // writes the execution too, so one of the two transactions conflicts and runs again.
    return this.transaction(async (session): Promise<ExecutionRecord | null> => {
      const doc = await this.executions.findOne({ _id: cmd.executionId }, { session });
      if (!doc) return null;
      const record = toExecution(doc);
      const states = await this.holdStates(record.holdIds, session);
      if (!isAbandoned(record, record.holdIds.map(states), cmd.now, cmd.graceMs)) return null;
      const abandoned = abandonedExecution(record, cmd.now);
      if (!(await this.putExecution(abandoned, doc, session)))
        throw new Error(`execution ${record.executionId} changed while it was abandoned`);
      return abandoned;
    });
  }

  async countIndeterminateExecutions(now: Date): Promise<number> {
    return this.executions.countDocuments({ state: "running", leaseExpiresAt: { $lte: now } });
  }

  /** The state of each of these holds; a hold that is not stored counts as released (it holds nothing). */
  private async holdStates(holdIds: string[], session?: ClientSession): Promise<(holdId: string) => Hold["state"]> {
    const docs =
      holdIds.length === 0 ? [] : await this.holds.find({ _id: { $in: holdIds } }, { session, projection: { state: 1 } }).toArray();
    const states = new Map(docs.map((doc) => [doc._id, doc.state]));
    return (holdId) => states.get(holdId) ?? "released";
  }

  /**
   * Writes `record` in place of `previous`, conditioned on its rev (still the document that was read),
   * or inserts it when there was none; false when `previous` changed since it was read.
   */
  private async putExecution(record: ExecutionRecord, previous: ExecutionDoc | null, session?: ClientSession): Promise<boolean> {
    const { _id, ...doc } = toExecutionDoc(record);
    if (!previous) {
      await this.executions.insertOne({ _id, ...doc }, { session });
      return true;
    }
    const written = await this.executions.replaceOne({ _id: previous._id, rev: previous.rev }, doc, { session });
    return written.matchedCount === 1;
  }
}

/**
 * What completing the execution `doc` with `result` does: not_found when it is missing, past its
 * retention or another user's; already_completed when it had ended; otherwise the record to write.
 */
function completion(
  doc: ExecutionDoc | null,
  userId: string,
  result: StoredResult,
  now: Date,
): { outcome: "not_found" | "already_completed" } | { outcome: "completed"; record: ExecutionRecord; previous: ExecutionDoc } {
  if (!doc || isPastRetention(doc, now) || doc.userId !== userId) return { outcome: "not_found" };
  const record = completedExecution(toExecution(doc), result, now);
  return record ? { outcome: "completed", record, previous: doc } : { outcome: "already_completed" };
}

function toWallet(doc: WalletDoc): Wallet {
  return { userId: doc._id, balanceCredits: doc.balanceCredits, heldCredits: doc.heldCredits };
}

function toHold({ _id, ...doc }: HoldDoc): Hold {
  return { holdId: _id, ...doc };
}

function toSpendPolicy({ _id, ...doc }: SpendPolicyDoc): SpendPolicy {
  return { ...doc, capabilityCaps: doc.capabilityCaps ?? [] };
}

function toQuote({ _id, ...doc }: QuoteDoc): QuoteRecord {
  return { quoteId: _id, ...doc };
}

function toEntry(doc: JournalDoc): JournalEntry {
  return {
    entryId: doc._id,
    userId: doc.userId,
    kind: doc.kind,
    amountCredits: doc.amountCredits,
    heldDeltaCredits: doc.heldDeltaCredits,
    referenceId: doc.referenceId,
    createdAt: doc.createdAt,
    ...(doc.reason ? { reason: doc.reason } : {}),
    ...(doc.operator !== undefined ? { operator: doc.operator } : {}),
    ...(doc.operatorName !== undefined ? { operatorName: doc.operatorName } : {}),
  };
}

function toUsage({ _id, kind, ...item }: UsageDoc): UsageItem {
  return kind === undefined || kind === "charge" ? { ...item, kind: "charge", holdId: _id } : { ...item, kind };
}

function toResource({ _id, ...doc }: ResourceDoc): OwnedResource {
  return doc;
}

function toPayment({ _id, ...doc }: PaymentDoc): OutgoingPayment {
  return { paymentId: _id, ...doc };
}

function toApiKey({ _id, ...doc }: ApiKeyDoc): ApiKeyRecord {
  return { keyId: _id, ...doc };
}

function toExecution({ _id, rev: _rev, result, ...doc }: ExecutionDoc): ExecutionRecord {
  return {
    executionId: _id,
    ...doc,
    ...(result
      ? { result: { httpStatus: result.httpStatus, ...(result.bodyJson === undefined ? {} : { body: JSON.parse(result.bodyJson) }) } }
      : {}),
  };
}

/** A new document for `record`, with a new rev. */
function toExecutionDoc({ executionId, result, ...record }: ExecutionRecord): ExecutionDoc {
  return {
    _id: executionId,
    ...record,
    ...(result
      ? { result: { httpStatus: result.httpStatus, ...(result.body === undefined ? {} : { bodyJson: JSON.stringify(result.body) }) } }
      : {}),
    rev: randomUUID(),
  };
}

function toTopUp(doc: TopUpDoc): TopUpRecord {
  const { _id, ...rest } = doc;
  return { topUpId: _id, ...rest };
}
