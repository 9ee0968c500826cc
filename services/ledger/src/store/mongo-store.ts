// The production ledger store on MongoDB (official driver). Money moves in multi-document
// transactions (wallet + hold + journal + usage move together) with snapshot reads and majority
// writes, so a replica set is required (a single-node replica set is enough for development).
// Inside a transaction every guard is a conditional write (`balanceCredits: {$gte: amount}`,
// `state: "held"`); concurrent transactions on one wallet or hold conflict and the driver retries
// them. Single-document operations (API keys, idempotency records) are compare-and-set updates.
// The wallets collection also carries a $jsonSchema validator (balance and held >= 0) as a last guard.
import { randomUUID } from "node:crypto";
import { MongoClient, MongoServerError, type ClientSession, type Collection, type Db, type TransactionOptions } from "mongodb";
import { newId } from "@agentic/platform";
import type { ApiKeyRecord, ClaimOutcome, Hold, JournalEntry, UsageItem, Wallet } from "../domain/types";
import {
  decideClaim,
  emptyWallet,
  idempotencyId,
  isPastRetention,
  isReplay,
  newClaimRecord,
  newHold,
  settledHold,
  settlementEffect,
  usageItemFor,
  type IdempotencyRecord,
} from "../domain/rules";
import type {
  ClaimCommand,
  CompleteCommand,
  CompleteOutcome,
  GrantCommand,
  GrantResult,
  HoldCommand,
  HoldResult,
  LedgerStore,
  SettleCommand,
  SettleResult,
} from "./store";

/** Collection names; prefixed because the database may be shared with other services. */
export const COLLECTIONS = {
  wallets: "ledger_wallets",
  holds: "ledger_holds",
  journal: "ledger_journal",
  usage: "ledger_usage",
  apiKeys: "ledger_api_keys",
  idempotency: "ledger_idempotency",
} as const;

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

interface UsageDoc extends Omit<UsageItem, "holdId"> {
  _id: string; // hold id: one usage item per hold
}

interface ApiKeyDoc extends Omit<ApiKeyRecord, "keyId"> {
  _id: string; // key id
}

interface IdempotencyDoc extends Omit<IdempotencyRecord, "result"> {
  _id: string; // idempotencyId(userId, key)
  /** Changes on every write; compare-and-set token. */
  rev: string;
  result?: { httpStatus: number; bodyJson?: string };
}

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
  private readonly idempotency: Collection<IdempotencyDoc>;

  private constructor(
    private readonly client: MongoClient,
    readonly db: Db,
  ) {
    this.wallets = db.collection(COLLECTIONS.wallets);
    this.holds = db.collection(COLLECTIONS.holds);
    this.journal = db.collection(COLLECTIONS.journal);
    this.usage = db.collection(COLLECTIONS.usage);
    this.apiKeys = db.collection(COLLECTIONS.apiKeys);
    this.idempotency = db.collection(COLLECTIONS.idempotency);
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

  private async ensureSchema(): Promise<void> {
    const nonNegative = { bsonType: ["int", "long", "double", "decimal"], minimum: 0 };
    try {
      await this.db.createCollection(COLLECTIONS.wallets, {
        validator: { $jsonSchema: { bsonType: "object", required: ["balanceCredits", "heldCredits"], properties: { balanceCredits: nonNegative, heldCredits: nonNegative } } },
        validationAction: "error",
      });
    } catch (err) {
      if (!(err instanceof MongoServerError && err.codeName === "NamespaceExists")) throw err;
    }
    await Promise.all([
      // The sweeper's query; holds are otherwise read by _id only.
      this.holds.createIndexes([{ key: { expiresAt: 1 }, name: "held_by_expiry", partialFilterExpression: { state: "held" } }]),
      this.journal.createIndexes([
        // At most one movement of each kind per grant or hold id: a second capture cannot be written.
        { key: { referenceId: 1, kind: 1 }, name: "one_movement_per_reference", unique: true },
        { key: { userId: 1, seq: 1 }, name: "by_user_in_order", unique: true },
      ]),
      // Exactly listUsage's filter and sort ({createdAt: -1, _id: -1}), so the sort needs no memory.
      this.usage.createIndexes([{ key: { userId: 1, createdAt: -1, _id: -1 }, name: "by_user_newest_first_then_id" }]),
      this.apiKeys.createIndexes([
        { key: { keyHash: 1 }, name: "one_record_per_key", unique: true },
        { key: { userId: 1, createdAt: 1 }, name: "by_user" },
      ]),
      this.idempotency.createIndexes([{ key: { expiresAt: 1 }, name: "ttl", expireAfterSeconds: 0 }]),
    ]);
  }

  /** Runs `fn` in a transaction (retried by the driver on transient conflicts); `Abort` ends it with a value. */
  private async transaction<T>(fn: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.client.startSession();
    try {
      return await session.withTransaction(fn, TRANSACTION);
    } catch (err) {
      if (err instanceof Abort) return err.value as T;
      throw err;
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
      { $inc: { balanceCredits: entry.amountCredits, heldCredits: entry.heldDeltaCredits, journalSeq: 1 }, $set: { updatedAt: entry.createdAt } },
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
    const docs = await this.apiKeys.find(userId === undefined ? {} : { userId }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toApiKey);
  }

  async revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    const revoked = await this.apiKeys.findOneAndUpdate({ _id: keyId, revokedAt: { $exists: false } }, { $set: { revokedAt: now } }, { returnDocument: "after" });
    if (revoked) return toApiKey(revoked);
    const doc = await this.apiKeys.findOne({ _id: keyId });
    return doc ? toApiKey(doc) : null;
  }

  async getWallet(userId: string): Promise<Wallet> {
    return this.walletIn(userId);
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
        { userId: cmd.userId, kind: "grant", amountCredits: cmd.amountCredits, heldDeltaCredits: 0, referenceId: cmd.grantId, createdAt: cmd.now, reason: cmd.reason },
        { upsert: true },
      );
      return { status: "granted", ...moved };
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
      const hold = newHold(cmd);
      let moved: { wallet: Wallet };
      try {
        // The conditional update is the balance check: it matches no wallet when the balance is
        // short or the user has no wallet (no upsert), and a concurrent hold that committed first wins.
        moved = await this.move(session, { userId: cmd.userId, kind: "hold", amountCredits: -cmd.amountCredits, heldDeltaCredits: cmd.amountCredits, referenceId: cmd.holdId, createdAt: cmd.now });
      } catch (err) {
        if (err instanceof Abort) throw new Abort<HoldResult>({ status: "insufficient", wallet: await this.walletIn(cmd.userId, session) });
        throw err;
      }
      const { holdId, ...doc } = hold;
      await this.holds.insertOne({ _id: holdId, ...doc }, { session });
      return { status: "created", hold, wallet: moved.wallet };
    });
  }

  async getHold(holdId: string): Promise<Hold | null> {
    const doc = await this.holds.findOne({ _id: holdId });
    return doc ? toHold(doc) : null;
  }

  async settleHold(cmd: SettleCommand): Promise<SettleResult> {
    return this.transaction(async (session): Promise<SettleResult> => {
      const doc = await this.holds.findOne({ _id: cmd.holdId }, { session });
      if (!doc) return { status: "unknown_hold" };
      const hold = toHold(doc);
      if (hold.userId !== cmd.userId) return { status: "user_mismatch", hold };
      if (hold.state !== "held") return { status: "already_settled", hold, usageRecorded: await this.recordUsage(hold, cmd, session) };

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
      return { status: "applied", hold: settled, wallet: moved.wallet, usageRecorded: await this.recordUsage(settled, cmd, session) };
    });
  }

  /** Inserts the hold's usage item unless one exists (upsert on the hold id); true when inserted. */
  private async recordUsage(hold: Hold, cmd: SettleCommand, session: ClientSession): Promise<boolean> {
    if (!cmd.usage) return false;
    const { holdId, ...item } = usageItemFor(hold, cmd.usage);
    const result = await this.usage.updateOne({ _id: holdId }, { $setOnInsert: item }, { upsert: true, session });
    return result.upsertedCount === 1;
  }

  async listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    const docs = await this.holds.find({ state: "held", expiresAt: { $lte: now } }).sort({ expiresAt: 1 }).limit(limit).toArray();
    return docs.map(toHold);
  }

  async listUsage(userId: string, limit: number): Promise<UsageItem[]> {
    const docs = await this.usage.find({ userId }).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
    return docs.map(({ _id, ...item }) => ({ ...item, holdId: _id }));
  }

  async listJournal(userId: string): Promise<JournalEntry[]> {
    return (await this.journal.find({ userId }).sort({ seq: 1 }).toArray()).map(toEntry);
  }

  async claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    const _id = idempotencyId(cmd.userId, cmd.key);
    // Compare-and-set loop: each pass reads the record and writes only if it is still the one read.
    for (let attempt = 0; attempt < 10; attempt++) {
      const existing = await this.idempotency.findOne({ _id });
      const decision = decideClaim(existing ? toIdempotency(existing) : null, cmd);
      if (decision.action === "answer") return decision.outcome;
      if (decision.action === "take_over" && existing) {
        const taken = await this.idempotency.updateOne(
          { _id, rev: existing.rev, state: "in_progress" },
          { $set: { leaseExpiresAt: new Date(cmd.now.getTime() + cmd.leaseMs), rev: randomUUID() } },
        );
        if (taken.modifiedCount === 1) return { state: "claimed" };
        continue;
      }
      const fresh: IdempotencyDoc = { _id, ...newClaimRecord(cmd), rev: randomUUID() };
      if (existing) {
        // Past its retention but not yet removed by the TTL monitor: replace it if still the same.
        const replaced = await this.idempotency.replaceOne({ _id, rev: existing.rev }, fresh);
        if (replaced.modifiedCount === 1) return { state: "claimed" };
        continue;
      }
      try {
        await this.idempotency.insertOne(fresh);
        return { state: "claimed" };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    throw new Error("idempotency claim lost too many races");
  }

  async completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    const _id = idempotencyId(cmd.userId, cmd.key);
    const result = { httpStatus: cmd.result.httpStatus, bodyJson: cmd.result.body === undefined ? undefined : JSON.stringify(cmd.result.body) };
    const done = await this.idempotency.updateOne(
      { _id, state: "in_progress", expiresAt: { $gt: cmd.now } },
      { $set: { state: "completed", result, rev: randomUUID() } },
    );
    if (done.modifiedCount === 1) return "completed";
    const existing = await this.idempotency.findOne({ _id });
    if (!existing || isPastRetention(existing, cmd.now)) return "not_found";
    return "already_completed";
  }
}

function toWallet(doc: WalletDoc): Wallet {
  return { userId: doc._id, balanceCredits: doc.balanceCredits, heldCredits: doc.heldCredits };
}

function toHold({ _id, ...doc }: HoldDoc): Hold {
  return { holdId: _id, ...doc };
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
  };
}

function toApiKey({ _id, ...doc }: ApiKeyDoc): ApiKeyRecord {
  return { keyId: _id, ...doc };
}

function toIdempotency(doc: IdempotencyDoc): IdempotencyRecord {
  const { _id, rev, result, state, ...record } = doc;
  if (state === "in_progress") return { ...record, state };
  // completeIdempotencyKey sets the state and the result in one update.
  if (!result) throw new Error(`idempotency record ${_id} is completed without a result`);
  return { ...record, state, result: { httpStatus: result.httpStatus, body: result.bodyJson === undefined ? undefined : JSON.parse(result.bodyJson) } };
}
