// The embedded, durable ledger store (the default outside production): one SQLite file through
// Node's built-in `node:sqlite` (built into Node 24, so nothing to install). Why this shape:
// - DatabaseSync is synchronous, so every method runs its checks and its writes inside one
//   `BEGIN IMMEDIATE` transaction with no `await` in between: atomic on Node's single thread
//   (nothing interleaves) and against other processes on the same file (IMMEDIATE takes the write
//   lock before the first read, so nobody can change what was checked before it is written).
// - WAL journal with `synchronous=FULL`: COMMIT returns only after the WAL is fsynced, so a
//   committed transaction survives SIGKILL and power loss; readers never block the writer.
// - Group commit: the fsync of a COMMIT blocks this thread (0.3 ms on a quiet disk, several on a
//   busy one), so one per operation would cap the ledger at a few thousand writes a second and stall
//   everything else meanwhile. The operations of one event-loop turn share one transaction and one
//   COMMIT instead: each runs in its own SAVEPOINT (a failing one undoes only itself), and none is
//   answered before that COMMIT returned, so every answer is still durable; a failed COMMIT fails
//   them all. A read outside a transaction may see the open group's writes, which are answered
//   (durable) at the end of the same turn, or undone together.
// - The money and execution rules are the pure functions of domain/rules.ts, applied exactly as the
//   other stores apply them. CHECK constraints (balance >= 0, held >= 0, known states) and unique
//   indexes are the last guard beneath them. Any error rolls the transaction back: nothing written.
// Times are stored as integer ms since the epoch and handed out as fresh Date objects.
// A lock held by another process is waited for up to busy_timeout, blocking this thread: share one
// file only between ledgers on the same machine (WAL needs a local filesystem, never NFS).
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { newId } from "@agentic/platform";
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
  newClaimedExecution,
  newHold,
  ownedResources,
  platformLosses,
  settledHold,
  settlementEffect,
  usageItemFor,
  usagePosition,
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
import { decideQuoteDraw, reservationHoldId, type CreateQuoteCommand, type CreateQuoteResult, type QuoteRecord } from "../domain/quote";
import {
  decideSpend,
  endedDelta,
  heldDelta,
  periodStartDay,
  policyAgentKey,
  spendBucketOf,
  spendPeriod,
  spendUsageOfBuckets,
  type CapabilityCap,
  type SpendBucketDelta,
  type SpendPolicy,
  type SpendReset,
  type SpendUsage,
} from "../domain/spend-policy";

/** The schema this code reads and writes; a newer file is refused rather than misread. */
export const SCHEMA_VERSION = 7;

/** MIGRATIONS[v] brings a database at schema version v to v + 1 (0 is an empty file). */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE wallets (
    user_id TEXT PRIMARY KEY,
    balance_credits INTEGER NOT NULL CHECK (balance_credits >= 0),
    held_credits INTEGER NOT NULL CHECK (held_credits >= 0)
  ) STRICT;

  CREATE TABLE holds (
    seq INTEGER PRIMARY KEY,
    hold_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES wallets (user_id),
    amount_credits INTEGER NOT NULL CHECK (amount_credits >= 0),
    state TEXT NOT NULL CHECK (state IN ('held', 'captured', 'released', 'expired')),
    captured_credits INTEGER NOT NULL CHECK (captured_credits BETWEEN 0 AND amount_credits),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    route_key TEXT NOT NULL,
    settled_at INTEGER,
    -- no foreign key: a hold outlives its execution record (records are purged after retention)
    execution_id TEXT
  ) STRICT;
  -- The sweeper's query: held holds by expiry.
  CREATE INDEX holds_held_by_expiry ON holds (expires_at, seq) WHERE state = 'held';

  CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    entry_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES wallets (user_id),
    kind TEXT NOT NULL CHECK (kind IN ('grant', 'hold', 'capture', 'release', 'expiry')),
    amount_credits INTEGER NOT NULL,
    held_delta_credits INTEGER NOT NULL,
    reference_id TEXT NOT NULL,
    reason TEXT,
    created_at INTEGER NOT NULL,
    UNIQUE (reference_id, kind)
  ) STRICT;
  CREATE INDEX journal_by_user ON journal (user_id, seq);
  -- A hold ends once: a second capture, release or expiry entry cannot be written.
  CREATE UNIQUE INDEX journal_one_ending_per_hold ON journal (reference_id) WHERE kind IN ('capture', 'release', 'expiry');

  CREATE TABLE usage (
    seq INTEGER PRIMARY KEY,
    hold_id TEXT NOT NULL UNIQUE REFERENCES holds (hold_id),
    user_id TEXT NOT NULL,
    usage_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    product_key TEXT NOT NULL,
    capability_key TEXT NOT NULL,
    route_key TEXT NOT NULL,
    provider TEXT NOT NULL,
    network_key TEXT NOT NULL,
    status TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    agent_name TEXT,
    trace_id TEXT NOT NULL,
    error_code TEXT,
    credits_charged INTEGER NOT NULL CHECK (credits_charged >= 0)
  ) STRICT;
  -- Exactly listUsage's filter and order.
  CREATE INDEX usage_by_user_newest_first ON usage (user_id, created_at DESC, seq DESC);

  CREATE TABLE api_keys (
    seq INTEGER PRIMARY KEY,
    key_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  ) STRICT;
  CREATE INDEX api_keys_by_user ON api_keys (user_id, created_at, seq);

  CREATE TABLE executions (
    seq INTEGER PRIMARY KEY,
    execution_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    capability_key TEXT NOT NULL,
    idempotency_key TEXT,
    request_hash TEXT,
    state TEXT NOT NULL CHECK (state IN ('claimed', 'running', 'succeeded', 'failed', 'outcome_unknown')),
    lease_expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    completed_at INTEGER,
    hold_ids TEXT NOT NULL, -- JSON array of hold ids, oldest first
    result TEXT -- JSON StoredResult
  ) STRICT;
  -- An Idempotency-Key names one execution per user.
  CREATE UNIQUE INDEX executions_one_per_key ON executions (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX executions_running_by_lease ON executions (lease_expires_at, seq) WHERE state = 'running';
  CREATE INDEX executions_by_expiry ON executions (expires_at);
  `,
  // 2: what settlements book besides money: resources users own, outgoing payments, platform losses.
  `
  CREATE TABLE resources (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    user_id TEXT NOT NULL,
    hold_id TEXT NOT NULL REFERENCES holds (hold_id),
    execution_id TEXT,
    created_at INTEGER NOT NULL,
    -- One owner per resource: the first capture that names it.
    UNIQUE (kind, resource_id)
  ) STRICT;

  CREATE TABLE payments (
    seq INTEGER PRIMARY KEY,
    payment_id TEXT NOT NULL UNIQUE, -- <hold_id>/<position>: a redelivered settlement books nothing new
    hold_id TEXT NOT NULL REFERENCES holds (hold_id),
    user_id TEXT NOT NULL,
    execution_id TEXT,
    route_key TEXT NOT NULL,
    rail TEXT NOT NULL CHECK (rail IN ('x402', 'mpp')),
    network TEXT NOT NULL,
    asset TEXT NOT NULL,
    amount_atomic TEXT NOT NULL,
    amount_micro_usd INTEGER NOT NULL CHECK (amount_micro_usd >= 0),
    pay_to TEXT NOT NULL,
    payer TEXT NOT NULL,
    reference TEXT,
    settlement TEXT NOT NULL CHECK (settlement IN ('settled', 'unconfirmed', 'rejected', 'unknown')),
    booked_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX payments_by_booked_at ON payments (booked_at, seq);

  -- The rest of a loss is its payment's (joined on payment_id).
  CREATE TABLE platform_losses (
    seq INTEGER PRIMARY KEY,
    payment_id TEXT NOT NULL UNIQUE REFERENCES payments (payment_id),
    reason TEXT NOT NULL,
    amount_micro_usd INTEGER NOT NULL CHECK (amount_micro_usd >= 0),
    error_code TEXT,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX platform_losses_by_created_at ON platform_losses (created_at, seq);

  -- The reconciliation's charges: captured holds by when they were applied.
  CREATE INDEX holds_captured_by_settled_at ON holds (settled_at) WHERE state = 'captured';
  `,
  // 3: the vendor's token usage on usage items (model routes; what a per-token charge comes from).
  `
  ALTER TABLE usage ADD COLUMN input_tokens INTEGER CHECK (input_tokens >= 0);
  ALTER TABLE usage ADD COLUMN output_tokens INTEGER CHECK (output_tokens >= 0);
  `,
  // 4: top-ups, one per x402 payment (network, asset, payer, nonce: hashed into top_up_id).
  `
  CREATE TABLE top_ups (
    seq INTEGER PRIMARY KEY,
    top_up_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    network TEXT NOT NULL,
    asset TEXT NOT NULL,
    payer TEXT NOT NULL,
    nonce TEXT NOT NULL,
    pay_to TEXT NOT NULL,
    amount_atomic TEXT NOT NULL,
    amount_credits INTEGER NOT NULL CHECK (amount_credits > 0),
    state TEXT NOT NULL CHECK (state IN ('pending', 'credited', 'failed')),
    created_at INTEGER NOT NULL,
    attempted_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    completed_at INTEGER,
    tx_reference TEXT,
    failure_reason TEXT,
    settlement TEXT,
    requirements TEXT NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (network, asset, payer, nonce)
  ) STRICT;
  -- The reconciler's query: pending top-ups by last attempt.
  CREATE INDEX top_ups_pending_by_attempt ON top_ups (attempted_at, seq) WHERE state = 'pending';
  `,
  // 5: operators' credit movements on the record, and usage as a money history paged by a cursor.
  // The journal takes refunds and adjustments and says who; usage items get a kind (a charge, or a
  // movement without a hold) and a key to page by (created_at, item_key). SQLite cannot change a CHECK
  // or a NOT NULL in place, so both tables are rebuilt, keeping every row, seq and id; nothing references them.
  `
  CREATE TABLE journal_v5 (
    seq INTEGER PRIMARY KEY,
    entry_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES wallets (user_id),
    kind TEXT NOT NULL CHECK (kind IN ('grant', 'hold', 'capture', 'release', 'expiry', 'refund', 'adjustment')),
    amount_credits INTEGER NOT NULL,
    held_delta_credits INTEGER NOT NULL,
    reference_id TEXT NOT NULL,
    reason TEXT,
    created_at INTEGER NOT NULL,
    operator TEXT,
    operator_name TEXT,
    UNIQUE (reference_id, kind)
  ) STRICT;
  INSERT INTO journal_v5 (seq, entry_id, user_id, kind, amount_credits, held_delta_credits, reference_id, reason, created_at)
    SELECT seq, entry_id, user_id, kind, amount_credits, held_delta_credits, reference_id, reason, created_at FROM journal;
  DROP TABLE journal;
  ALTER TABLE journal_v5 RENAME TO journal;
  CREATE INDEX journal_by_user ON journal (user_id, seq);
  CREATE UNIQUE INDEX journal_one_ending_per_hold ON journal (reference_id) WHERE kind IN ('capture', 'release', 'expiry');
  -- The reconciliation's credit movements, by when they were written.
  CREATE INDEX journal_movements_by_time ON journal (created_at) WHERE kind IN ('grant', 'refund', 'adjustment');

  CREATE TABLE usage_v5 (
    seq INTEGER PRIMARY KEY,
    -- The page order after created_at: the hold id of a charge, the journal entry id of a movement.
    item_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('charge', 'grant', 'refund', 'adjustment', 'top_up')),
    hold_id TEXT UNIQUE REFERENCES holds (hold_id),
    user_id TEXT NOT NULL,
    usage_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    product_key TEXT NOT NULL,
    capability_key TEXT NOT NULL,
    route_key TEXT NOT NULL,
    provider TEXT NOT NULL,
    network_key TEXT NOT NULL,
    status TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    agent_name TEXT,
    trace_id TEXT NOT NULL,
    error_code TEXT,
    credits_charged INTEGER NOT NULL CHECK (credits_charged >= 0),
    input_tokens INTEGER CHECK (input_tokens >= 0),
    output_tokens INTEGER CHECK (output_tokens >= 0),
    amount_credits INTEGER,
    reference TEXT UNIQUE,
    reason TEXT,
    operator TEXT,
    operator_name TEXT,
    -- A charge has its hold; a movement has a reference instead.
    CHECK ((kind = 'charge') = (hold_id IS NOT NULL)),
    CHECK ((kind = 'charge') = (reference IS NULL))
  ) STRICT;
  INSERT INTO usage_v5 (seq, item_key, kind, hold_id, user_id, usage_id, created_at, product_key, capability_key, route_key, provider, network_key,
                        status, duration_ms, agent_name, trace_id, error_code, credits_charged, input_tokens, output_tokens)
    SELECT seq, hold_id, 'charge', hold_id, user_id, usage_id, created_at, product_key, capability_key, route_key, provider, network_key,
           status, duration_ms, agent_name, trace_id, error_code, credits_charged, input_tokens, output_tokens FROM usage;
  DROP TABLE usage;
  ALTER TABLE usage_v5 RENAME TO usage;
  -- listUsage's order (created_at, item_key), newest first: alone, and after each equality filter.
  CREATE INDEX usage_by_user_newest_first ON usage (user_id, created_at DESC, item_key DESC);
  CREATE INDEX usage_by_user_kind ON usage (user_id, kind, created_at DESC, item_key DESC);
  CREATE INDEX usage_by_user_capability ON usage (user_id, capability_key, created_at DESC, item_key DESC);
  CREATE INDEX usage_by_user_agent ON usage (user_id, agent_name, created_at DESC, item_key DESC);
  `,
  // 6: a key's own request limits (SetApiKeyLimits); NULL is the gateway's default.
  `
  ALTER TABLE api_keys ADD COLUMN limit_rps INTEGER CHECK (limit_rps >= 1);
  ALTER TABLE api_keys ADD COLUMN limit_burst INTEGER CHECK (limit_burst >= 1);
  ALTER TABLE api_keys ADD COLUMN limit_in_flight INTEGER CHECK (limit_in_flight >= 1);
  `,
  // 7: spend policies (counted from the holds, which now say who spent them), quotes, the usage item's decision.
  `
  ALTER TABLE holds ADD COLUMN key_id TEXT;
  ALTER TABLE holds ADD COLUMN agent_name TEXT;
  ALTER TABLE holds ADD COLUMN capability_key TEXT;
  -- A policy's spend: per (key, agent, capability, UTC day of the hold), moved with each hold and its settlement.
  CREATE TABLE spend_buckets (
    key_id TEXT NOT NULL,
    agent_name TEXT NOT NULL, -- '' when the hold named no agent
    capability_key TEXT NOT NULL, -- '' when it named no capability
    day TEXT NOT NULL, -- YYYY-MM-DD
    held_credits INTEGER NOT NULL CHECK (held_credits >= 0),
    held_count INTEGER NOT NULL CHECK (held_count >= 0),
    captured_credits INTEGER NOT NULL CHECK (captured_credits >= 0),
    captured_count INTEGER NOT NULL CHECK (captured_count >= 0),
    PRIMARY KEY (key_id, day, agent_name, capability_key)
  ) STRICT;
  CREATE TABLE spend_policies (
    key_id TEXT NOT NULL,
    agent_name TEXT NOT NULL, -- '' for the key-wide policy
    budget_credits INTEGER CHECK (budget_credits >= 1),
    reset TEXT NOT NULL CHECK (reset IN ('daily', 'weekly', 'monthly', 'none')),
    capability_caps TEXT NOT NULL, -- JSON array of {capabilityKey, maxCredits?, maxCount?}
    max_price_credits INTEGER CHECK (max_price_credits >= 1),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (key_id, agent_name)
  ) STRICT;
  CREATE TABLE quotes (
    quote_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    agent_name TEXT,
    capability_key TEXT NOT NULL,
    route_key TEXT NOT NULL,
    amount_credits INTEGER NOT NULL CHECK (amount_credits >= 1),
    request_hash TEXT NOT NULL,
    reservation_hold_id TEXT NOT NULL UNIQUE REFERENCES holds (hold_id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_by_hold_id TEXT
  ) STRICT;
  ALTER TABLE usage ADD COLUMN decision_json TEXT;
  `,
];

/** Executions past their retention are deleted at most this often (they already count as absent). */
const PURGE_INTERVAL_MS = 60_000;
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

export interface SqliteLedgerStoreOptions {
  /** The database file (relative to the process cwd); created with its directories when missing. */
  path: string;
  /** How long a write waits for another process's lock before failing, in ms (default 5000). */
  busyTimeoutMs?: number;
}

interface WalletRow {
  user_id: string;
  balance_credits: number;
  held_credits: number;
}

interface HoldRow {
  hold_id: string;
  user_id: string;
  amount_credits: number;
  state: Hold["state"];
  captured_credits: number;
  created_at: number;
  expires_at: number;
  route_key: string;
  settled_at: number | null;
  execution_id: string | null;
  key_id: string | null;
  agent_name: string | null;
  capability_key: string | null;
}

interface SpendPolicyRow {
  key_id: string;
  agent_name: string;
  budget_credits: number | null;
  reset: SpendReset;
  capability_caps: string;
  max_price_credits: number | null;
  created_at: number;
  updated_at: number;
}

interface QuoteRow {
  quote_id: string;
  user_id: string;
  key_id: string;
  agent_name: string | null;
  capability_key: string;
  route_key: string;
  amount_credits: number;
  request_hash: string;
  reservation_hold_id: string;
  created_at: number;
  expires_at: number;
  used_by_hold_id: string | null;
}

interface JournalRow {
  entry_id: string;
  user_id: string;
  kind: JournalEntry["kind"];
  amount_credits: number;
  held_delta_credits: number;
  reference_id: string;
  created_at: number;
  reason: string | null;
  operator: string | null;
  operator_name: string | null;
}

interface UsageRow {
  kind: UsageItem["kind"];
  hold_id: string | null;
  user_id: string;
  usage_id: string;
  created_at: number;
  product_key: string;
  capability_key: string;
  route_key: string;
  provider: string;
  network_key: string;
  status: string;
  duration_ms: number;
  agent_name: string | null;
  trace_id: string;
  error_code: string | null;
  credits_charged: number;
  input_tokens: number | null;
  output_tokens: number | null;
  amount_credits: number | null;
  reference: string | null;
  reason: string | null;
  operator: string | null;
  operator_name: string | null;
  decision_json: string | null;
}

interface ApiKeyRow {
  key_id: string;
  user_id: string;
  key_hash: string;
  prefix: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
  limit_rps: number | null;
  limit_burst: number | null;
  limit_in_flight: number | null;
}

interface ExecutionRow {
  execution_id: string;
  user_id: string;
  capability_key: string;
  idempotency_key: string | null;
  request_hash: string | null;
  state: ExecutionRecord["state"];
  lease_expires_at: number;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
  hold_ids: string;
  result: string | null;
}

export class SqliteLedgerStore implements LedgerStore {
  private readonly statements = new Map<string, StatementSync>();
  private lastPurge = 0;
  /** The transaction the operations of this event-loop turn share, committed at its end (see the file's header). */
  private group: CommitGroup | undefined;

  private constructor(
    private readonly db: DatabaseSync,
    /** The absolute path of the database file. */
    readonly path: string,
  ) {}

  /**
   * Opens (creating when missing) the database at `opts.path`: WAL, synchronous=FULL, busy_timeout,
   * foreign keys, then the schema up to SCHEMA_VERSION and the store id, in one transaction.
   */
  static async open(opts: SqliteLedgerStoreOptions): Promise<SqliteLedgerStore> {
    const path = resolve(opts.path);
    mkdirSync(dirname(path), { recursive: true });
    const busyTimeoutMs = opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const db = new DatabaseSync(path, { timeout: busyTimeoutMs, enableForeignKeyConstraints: true });
    try {
      const mode = db.prepare("PRAGMA journal_mode = WAL").get()?.journal_mode;
      // WAL is what makes concurrent readers and durable commits cheap; refuse to run without it.
      if (mode !== "wal")
        throw new Error(`ledger sqlite ${path}: journal_mode is ${String(mode)}, WAL is required (a file on a local disk)`);
      db.exec(`PRAGMA synchronous = FULL; PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}; PRAGMA foreign_keys = ON;`);
      migrate(db, path);
      return new SqliteLedgerStore(db, path);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  async ping(): Promise<void> {
    this.sql("SELECT 1").get();
  }

  async close(): Promise<void> {
    if (this.group) this.commitGroup(this.group);
    if (this.db.isOpen) this.db.close();
  }

  async storeId(): Promise<string> {
    const row = this.sql("SELECT value FROM meta WHERE key = 'store_id'").get() as { value: string } | undefined;
    if (!row) throw new Error(`ledger sqlite ${this.path}: store id missing from meta`);
    return row.value;
  }

  async insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }> {
    return this.transaction(() => {
      const existing = this.apiKeyWhere("key_hash", record.keyHash);
      if (existing) return { status: "exists" as const, record: existing };
      this.sql("INSERT INTO api_keys (key_id, user_id, key_hash, prefix, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
        record.keyId,
        record.userId,
        record.keyHash,
        record.prefix,
        record.name,
        ms(record.createdAt),
        msOrNull(record.revokedAt),
      );
      return { status: "created" as const, record: this.apiKeyWhere("key_id", record.keyId)! };
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.apiKeyWhere("key_hash", keyHash);
  }

  async listApiKeys(userId?: string): Promise<ApiKeyRecord[]> {
    const rows =
      userId === undefined
        ? this.sql("SELECT * FROM api_keys ORDER BY created_at, seq").all()
        : this.sql("SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, seq").all(userId);
    return (rows as unknown as ApiKeyRow[]).map(toApiKey);
  }

  async revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    return this.transaction(() => {
      // The first revoke's time stays.
      this.sql("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL").run(ms(now), keyId);
      return this.apiKeyWhere("key_id", keyId);
    });
  }

  async setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null> {
    return this.transaction(() => {
      this.sql("UPDATE api_keys SET limit_rps = ?, limit_burst = ?, limit_in_flight = ? WHERE key_id = ?").run(
        limits?.requestsPerSecond ?? null,
        limits?.burst ?? null,
        limits?.maxInFlight ?? null,
        keyId,
      );
      return this.apiKeyWhere("key_id", keyId);
    });
  }

  async getWallet(userId: string): Promise<Wallet> {
    return this.walletOf(userId);
  }

  async listWallets(): Promise<Wallet[]> {
    return (this.sql("SELECT * FROM wallets ORDER BY user_id").all() as unknown as WalletRow[]).map(toWallet);
  }

  async grant(cmd: GrantCommand): Promise<GrantResult> {
    return this.transaction((): GrantResult => {
      const row = this.sql("SELECT * FROM journal WHERE reference_id = ? AND kind = 'grant'").get(cmd.grantId) as JournalRow | undefined;
      if (row) {
        const existing = toEntry(row);
        if (!isReplay(existing, cmd)) return { status: "conflict", entry: existing };
        return { status: "replayed", wallet: this.walletOf(cmd.userId), entry: existing };
      }
      const entry = this.move(cmd.userId, "grant", cmd.grantId, cmd.amountCredits, 0, cmd.now, cmd.reason);
      return { status: "granted", wallet: this.walletOf(cmd.userId), entry };
    });
  }

  async moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult> {
    return this.transaction((): CreditMovementResult => {
      // A grant id is a reference too: one movement per reference, whatever its kind.
      const row = this.sql("SELECT * FROM journal WHERE reference_id = ? AND kind IN ('grant', 'refund', 'adjustment')").get(
        cmd.reference,
      ) as JournalRow | undefined;
      const decision = decideCreditMovement(row ? toEntry(row) : null, cmd, this.walletOf(cmd.userId).balanceCredits);
      if (decision.action === "conflict") return { status: "conflict", entry: decision.entry };
      if (decision.action === "replay") return { status: "replayed", wallet: this.walletOf(cmd.userId), entry: decision.entry };
      if (decision.action === "insufficient") return { status: "insufficient", wallet: this.walletOf(cmd.userId) };
      const entry = this.move(cmd.userId, cmd.kind, cmd.reference, cmd.amountCredits, 0, cmd.now, cmd.reason, {
        operator: cmd.operator,
        operatorName: cmd.operatorName,
      });
      this.insertUsage(movementUsageItem(entry, cmd));
      return { status: "recorded", wallet: this.walletOf(cmd.userId), entry };
    });
  }

  async hold(cmd: HoldCommand): Promise<HoldResult> {
    return this.transaction((): HoldResult => {
      const existing = this.holdById(cmd.holdId);
      if (existing) {
        if (!isReplay(existing, cmd)) return { status: "conflict", hold: existing };
        return { status: "replayed", hold: existing, wallet: this.walletOf(existing.userId) };
      }
      // A quote to draw must be the user's, open and of this amount.
      const quote = cmd.quoteId !== undefined ? this.quoteById(cmd.quoteId) : null;
      const reservation = quote ? this.holdById(quote.reservationHoldId) : null;
      if (cmd.quoteId !== undefined) {
        const refused = decideQuoteDraw(quote, reservation, cmd);
        if (refused) return { status: "quote_refused", reason: refused };
      }
      // The execution's fence first: an attempt that may not start is refused whatever the balance.
      let execution: ExecutionRecord | undefined;
      if (cmd.execution) {
        const decision = decideExecutionHold(this.liveExecution(cmd.execution.executionId, cmd.now), {
          userId: cmd.userId,
          holdId: cmd.holdId,
          execution: cmd.execution,
          now: cmd.now,
        });
        if (decision.action === "fenced") return { status: "fenced", reason: decision.reason };
        execution = decision.record;
      }
      // Spend policies read and checked in this transaction (BEGIN IMMEDIATE: one writer), so no concurrent hold can overtake a limit.
      if (cmd.spend) {
        const who = cmd.spend;
        const checks = this.policiesOf(who.keyId, who.agentName).map((policy) => ({
          policy,
          usage: this.usageOf(policy, spendPeriod(policy, cmd.now).start),
        }));
        const refusal = decideSpend(checks, who, cmd.amountCredits, cmd.now);
        if (refusal) return { status: "spend_refused", refusal };
      }
      const wallet = this.walletRow(cmd.userId);
      if (!wallet || wallet.balanceCredits + (reservation?.amountCredits ?? 0) < cmd.amountCredits)
        return { status: "insufficient", wallet: wallet ?? emptyWallet(cmd.userId) };
      if (quote && reservation) {
        // The reservation ends and its credits go straight into this hold, in this one transaction.
        const effect = settlementEffect(reservation, "release", 0);
        const settled = settledHold(reservation, effect, cmd.now);
        this.sql("UPDATE holds SET state = ?, settled_at = ? WHERE hold_id = ? AND state = 'held'").run(
          settled.state,
          msOrNull(settled.settledAt),
          settled.holdId,
        );
        this.move(reservation.userId, effect.kind, reservation.holdId, effect.amountCredits, effect.heldDeltaCredits, cmd.now);
        this.moveSpend(reservation, endedDelta(reservation, settled));
        this.sql("UPDATE quotes SET used_by_hold_id = ? WHERE quote_id = ?").run(cmd.holdId, quote.quoteId);
      }
      const hold = newHold(cmd);
      this.move(cmd.userId, "hold", cmd.holdId, -cmd.amountCredits, cmd.amountCredits, cmd.now);
      this.insertHold(hold);
      this.moveSpend(hold, heldDelta(hold.amountCredits));
      if (execution) this.putExecution(execution);
      return { status: "created", hold: this.holdById(hold.holdId)!, wallet: this.walletOf(cmd.userId) };
    });
  }

  async getHold(holdId: string): Promise<Hold | null> {
    return this.holdById(holdId);
  }

  async setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy> {
    return this.transaction(() => {
      // The first createdAt stays: a `none` allowance keeps counting from it across updates.
      this.sql(
        `INSERT INTO spend_policies (key_id, agent_name, budget_credits, reset, capability_caps, max_price_credits, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (key_id, agent_name) DO UPDATE SET budget_credits = excluded.budget_credits, reset = excluded.reset,
           capability_caps = excluded.capability_caps, max_price_credits = excluded.max_price_credits, updated_at = excluded.updated_at`,
      ).run(
        policy.keyId,
        policyAgentKey(policy.agentName),
        policy.budgetCredits ?? null,
        policy.reset,
        JSON.stringify(policy.capabilityCaps),
        policy.maxPriceCredits ?? null,
        ms(policy.createdAt),
        ms(policy.updatedAt),
      );
      return this.policiesOf(policy.keyId, policy.agentName).find((p) => p.agentName === policy.agentName)!;
    });
  }

  async clearSpendPolicy(keyId: string, agentName?: string): Promise<boolean> {
    return this.transaction(
      () =>
        Number(this.sql("DELETE FROM spend_policies WHERE key_id = ? AND agent_name = ?").run(keyId, policyAgentKey(agentName)).changes) ===
        1,
    );
  }

  async listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]> {
    if (keyIds.length === 0) return [];
    const rows = this.sql(`SELECT * FROM spend_policies WHERE key_id IN (SELECT value FROM json_each(?)) ORDER BY key_id, agent_name`).all(
      JSON.stringify(keyIds),
    ) as unknown as SpendPolicyRow[];
    return rows.map(toSpendPolicy);
  }

  async spendUsage(policy: Pick<SpendPolicy, "keyId" | "agentName">, since: Date): Promise<SpendUsage> {
    return this.usageOf(policy, since);
  }

  async createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult> {
    return this.transaction((): CreateQuoteResult => {
      const existing = this.quoteById(cmd.quoteId);
      if (existing) {
        if (!isReplay(existing, cmd)) return { status: "conflict", quote: existing };
        return { status: "replayed", quote: existing, wallet: this.walletOf(existing.userId) };
      }
      const wallet = this.walletRow(cmd.userId);
      if (!wallet || wallet.balanceCredits < cmd.amountCredits)
        return { status: "insufficient", wallet: wallet ?? emptyWallet(cmd.userId) };
      const holdId = reservationHoldId(cmd.quoteId);
      this.move(cmd.userId, "hold", holdId, -cmd.amountCredits, cmd.amountCredits, cmd.now);
      this.insertHold(newHold({ ...cmd, holdId }));
      this.sql(
        `INSERT INTO quotes (quote_id, user_id, key_id, agent_name, capability_key, route_key, amount_credits, request_hash, reservation_hold_id, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        cmd.quoteId,
        cmd.userId,
        cmd.keyId,
        cmd.agentName ?? null,
        cmd.capabilityKey,
        cmd.routeKey,
        cmd.amountCredits,
        cmd.requestHash,
        holdId,
        ms(cmd.createdAt),
        ms(cmd.expiresAt),
      );
      return { status: "created", quote: this.quoteById(cmd.quoteId)!, wallet: this.walletOf(cmd.userId) };
    });
  }

  async getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null> {
    const quote = this.quoteById(quoteId);
    return quote ? { quote, reservation: this.holdById(quote.reservationHoldId) } : null;
  }

  async settleHold(cmd: SettleCommand): Promise<SettleResult> {
    return this.transaction((): SettleResult => {
      const hold = this.holdById(cmd.holdId);
      if (!hold) return { status: "unknown_hold" };
      if (hold.userId !== cmd.userId) return { status: "user_mismatch", hold };
      if (hold.state !== "held")
        return { status: "already_settled", hold, usageRecorded: this.recordUsage(hold, cmd), booked: this.book(hold, cmd) };

      const effect = settlementEffect(hold, cmd.kind, cmd.capturedCredits);
      const settled = settledHold(hold, effect, cmd.now);
      // The hold leaves `held` first; if the wallet movement is refused, the rollback puts it back.
      const changed = this.sql("UPDATE holds SET state = ?, captured_credits = ?, settled_at = ? WHERE hold_id = ? AND state = 'held'").run(
        settled.state,
        settled.capturedCredits,
        msOrNull(settled.settledAt),
        settled.holdId,
      ).changes;
      if (Number(changed) !== 1) throw new Error(`ledger invariant: hold ${hold.holdId} changed during its settlement`);
      this.move(hold.userId, effect.kind, hold.holdId, effect.amountCredits, effect.heldDeltaCredits, cmd.now);
      this.moveSpend(hold, endedDelta(hold, settled));
      const usageRecorded = this.recordUsage(settled, cmd);
      const booked = this.book(settled, cmd);
      if (cmd.outcome && settled.executionId) this.complete(settled.executionId, settled.userId, cmd.outcome, cmd.now);
      return { status: "applied", hold: this.holdById(settled.holdId)!, wallet: this.walletOf(settled.userId), usageRecorded, booked };
    });
  }

  async listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    const rows = this.sql("SELECT * FROM holds WHERE state = 'held' AND expires_at <= ? ORDER BY expires_at, seq LIMIT ?").all(
      ms(now),
      limit,
    );
    return (rows as unknown as HoldRow[]).map(toHold);
  }

  async listUsage(userId: string, limit: number, query: UsageQuery = {}): Promise<UsageItem[]> {
    const { sql, params } = usageQuerySql(userId, limit, query);
    return (this.sql(sql).all(...params) as unknown as UsageRow[]).map(toUsage);
  }

  async listJournal(userId: string): Promise<JournalEntry[]> {
    return (this.sql("SELECT * FROM journal WHERE user_id = ? ORDER BY seq").all(userId) as unknown as JournalRow[]).map(toEntry);
  }

  async claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    return this.transaction((): ClaimOutcome => {
      this.purgePastRetention(cmd.now);
      const row = this.sql("SELECT * FROM executions WHERE user_id = ? AND idempotency_key = ?").get(cmd.userId, cmd.key) as
        ExecutionRow | undefined;
      const existing = row ? toExecution(row) : null;
      const decision = decideClaim(existing, cmd);
      if (decision.action === "answer") return decision.outcome;
      // create, or take over a claim that never held anything: the old execution id is dropped with it.
      if (existing) this.sql("DELETE FROM executions WHERE execution_id = ?").run(existing.executionId);
      const record = newClaimedExecution(cmd);
      this.putExecution(record);
      return { state: "claimed", executionId: record.executionId };
    });
  }

  async completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    return this.transaction((): CompleteOutcome => {
      const row = this.sql("SELECT execution_id FROM executions WHERE user_id = ? AND idempotency_key = ?").get(cmd.userId, cmd.key) as
        { execution_id: string } | undefined;
      if (!row) return "not_found";
      return this.complete(row.execution_id, cmd.userId, cmd.result, cmd.now);
    });
  }

  async completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome> {
    return this.transaction(() => this.complete(cmd.executionId, cmd.userId, cmd.result, cmd.now));
  }

  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    return this.executionById(executionId);
  }

  async listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]> {
    // One read snapshot for the executions and their holds (another process may be writing).
    return this.transaction(() => {
      // SQL narrows to running executions past lease + grace; isAbandoned, with their holds, decides.
      const rows = this.sql(
        "SELECT * FROM executions WHERE state = 'running' AND lease_expires_at <= ? ORDER BY lease_expires_at, seq",
      ).all(ms(now) - graceMs);
      return (rows as unknown as ExecutionRow[])
        .map(toExecution)
        .filter((record) => isAbandoned(record, this.holdStates(record), now, graceMs))
        .slice(0, limit);
    });
  }

  async abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null> {
    return this.transaction(() => {
      const record = this.executionById(cmd.executionId);
      if (!record || !isAbandoned(record, this.holdStates(record), cmd.now, cmd.graceMs)) return null;
      const abandoned = abandonedExecution(record, cmd.now);
      this.putExecution(abandoned);
      return this.executionById(abandoned.executionId);
    });
  }

  async countIndeterminateExecutions(now: Date): Promise<number> {
    const row = this.sql("SELECT count(*) AS n FROM executions WHERE state = 'running' AND lease_expires_at <= ?").get(ms(now)) as {
      n: number;
    };
    return row.n;
  }

  async getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null> {
    const row = this.sql("SELECT * FROM resources WHERE kind = ? AND resource_id = ?").get(kind, resourceId) as ResourceRow | undefined;
    return row ? toResource(row) : null;
  }

  async listPayments(range: TimeRange): Promise<OutgoingPayment[]> {
    const rows = this.sql("SELECT * FROM payments WHERE booked_at >= ? AND booked_at < ? ORDER BY booked_at, seq").all(
      ms(range.from),
      ms(range.to),
    );
    return (rows as unknown as PaymentRow[]).map(toPayment);
  }

  async listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]> {
    const rows = this.sql(
      `SELECT l.reason, l.amount_micro_usd AS loss_micro_usd, l.error_code, l.created_at AS loss_created_at, p.*
       FROM platform_losses l JOIN payments p ON p.payment_id = l.payment_id
       WHERE l.created_at >= ? AND l.created_at < ? ORDER BY l.created_at, l.seq`,
    ).all(ms(range.from), ms(range.to));
    return (rows as unknown as LossRow[]).map(toLoss);
  }

  async sumCharges(range: TimeRange): Promise<ChargeTotal[]> {
    const rows = this.sql(
      `SELECT strftime('%Y-%m-%d', settled_at / 1000, 'unixepoch') AS day, route_key, sum(captured_credits) AS charged, count(*) AS n
       FROM holds WHERE state = 'captured' AND settled_at >= ? AND settled_at < ? GROUP BY day, route_key`,
    ).all(ms(range.from), ms(range.to)) as unknown as Array<{ day: string; route_key: string; charged: number; n: number }>;
    return rows.map((r) => ({ day: r.day, routeKey: r.route_key, chargedCredits: r.charged, captures: r.n }));
  }

  async sumPayments(range: TimeRange): Promise<PaymentTotal[]> {
    const rows = this.sql(
      `SELECT strftime('%Y-%m-%d', booked_at / 1000, 'unixepoch') AS day, route_key, settlement, sum(amount_micro_usd) AS amount, count(*) AS n
       FROM payments WHERE booked_at >= ? AND booked_at < ? GROUP BY day, route_key, settlement`,
    ).all(ms(range.from), ms(range.to)) as unknown as Array<{
      day: string;
      route_key: string;
      settlement: PaymentTotal["settlement"];
      amount: number;
      n: number;
    }>;
    return rows.map((r) => ({ day: r.day, routeKey: r.route_key, settlement: r.settlement, amountMicroUsd: r.amount, payments: r.n }));
  }

  async sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]> {
    const rows = this.sql(
      `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, kind, count(*) AS n,
              sum(CASE WHEN amount_credits > 0 THEN amount_credits ELSE 0 END) AS added,
              sum(CASE WHEN amount_credits < 0 THEN -amount_credits ELSE 0 END) AS removed
       FROM journal WHERE kind IN ('grant', 'refund', 'adjustment') AND created_at >= ? AND created_at < ? GROUP BY day, kind`,
    ).all(ms(range.from), ms(range.to)) as unknown as Array<{
      day: string;
      kind: CreditMovementTotal["kind"];
      n: number;
      added: number;
      removed: number;
    }>;
    return rows.map((r) => ({ day: r.day, kind: r.kind, movements: r.n, addedCredits: r.added, removedCredits: r.removed }));
  }

  /**
   * Runs `fn` atomically: in its own SAVEPOINT of this turn's group transaction (BEGIN IMMEDIATE:
   * the write lock first, so it is also a consistent snapshot for reads), undone when it throws.
   * `fn` is synchronous, so nothing else in this process runs in between. Resolves with its value
   * once the group's COMMIT returned (durable); rejects when `fn` throws, or when the COMMIT fails.
   */
  private transaction<T>(fn: () => T): Promise<T> {
    const group = this.group ?? this.openGroup();
    this.db.exec("SAVEPOINT operation");
    let value: T;
    try {
      value = fn();
      this.db.exec("RELEASE operation");
    } catch (err) {
      this.undoOperation(group, err);
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => group.waiters.push({ resolve: () => resolve(value), reject }));
  }

  /** Begins this turn's group transaction (throws when the write lock stays taken past busy_timeout); commits it once the turn ends. */
  private openGroup(): CommitGroup {
    this.db.exec("BEGIN IMMEDIATE");
    const group: CommitGroup = { waiters: [], ended: false };
    this.group = group;
    setImmediate(() => this.commitGroup(group));
    return group;
  }

  /** Commits the group and answers its operations; a failed COMMIT rolls it back and fails them all. */
  private commitGroup(group: CommitGroup): void {
    if (group.ended) return;
    group.ended = true;
    if (this.group === group) this.group = undefined;
    try {
      this.db.exec("COMMIT");
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      for (const w of group.waiters) w.reject(err);
      return;
    }
    for (const w of group.waiters) w.resolve();
  }

  /**
   * Undoes the operation that threw. Some SQLite errors (I/O, full disk) roll back the whole
   * transaction themselves, taking the group's earlier operations with them: those then fail too.
   */
  private undoOperation(group: CommitGroup, cause: unknown): void {
    try {
      if (!this.db.isTransaction) throw cause;
      this.db.exec("ROLLBACK TO operation");
      this.db.exec("RELEASE operation");
    } catch {
      group.ended = true;
      if (this.group === group) this.group = undefined;
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      for (const w of group.waiters) w.reject(cause);
    }
  }

  /** A prepared statement, prepared once per store. */
  private sql(query: string): StatementSync {
    let statement = this.statements.get(query);
    if (!statement) {
      statement = this.db.prepare(query);
      this.statements.set(query, statement);
    }
    return statement;
  }

  /**
   * Applies one journal entry to the user's wallet (created when missing) and appends it. Refuses
   * (throws, so the transaction writes nothing) a movement that would take the balance or the held
   * credits below zero: callers check first, this and the CHECK constraints are the last defence.
   */
  private move(
    userId: string,
    kind: JournalEntry["kind"],
    referenceId: string,
    amountCredits: number,
    heldDeltaCredits: number,
    now: Date,
    reason?: string,
    who: Pick<JournalEntry, "operator" | "operatorName"> = {},
  ): JournalEntry {
    const wallet = this.walletOf(userId);
    const balanceCredits = wallet.balanceCredits + amountCredits;
    const heldCredits = wallet.heldCredits + heldDeltaCredits;
    if (balanceCredits < 0 || heldCredits < 0) {
      throw new Error(`ledger invariant: ${kind} ${referenceId} would leave ${userId} at balance ${balanceCredits}, held ${heldCredits}`);
    }
    this.sql(
      `INSERT INTO wallets (user_id, balance_credits, held_credits) VALUES (?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET balance_credits = excluded.balance_credits, held_credits = excluded.held_credits`,
    ).run(userId, balanceCredits, heldCredits);
    const row = this.sql(
      `INSERT INTO journal (entry_id, user_id, kind, amount_credits, held_delta_credits, reference_id, reason, created_at, operator, operator_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      newId("journal"),
      userId,
      kind,
      amountCredits,
      heldDeltaCredits,
      referenceId,
      reason ?? null,
      ms(now),
      who.operator ?? null,
      who.operatorName ?? null,
    );
    return toEntry(row as unknown as JournalRow);
  }

  async getTopUp(topUpId: string): Promise<TopUpRecord | null> {
    const row = this.sql("SELECT * FROM top_ups WHERE top_up_id = ?").get(topUpId) as TopUpRow | undefined;
    return row ? toTopUp(row) : null;
  }

  async startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart> {
    return this.transaction((): TopUpStart => {
      const row = this.sql("SELECT * FROM top_ups WHERE top_up_id = ?").get(cmd.record.topUpId) as TopUpRow | undefined;
      const existing = row ? toTopUp(row) : null;
      const decision = decideTopUpStart(existing, cmd);
      if (decision.action === "exists") return { status: "exists", record: existing! };
      if (decision.action === "retry") {
        this.sql("UPDATE top_ups SET attempted_at = ?, attempts = ? WHERE top_up_id = ? AND state = 'pending'").run(
          ms(decision.record.attemptedAt),
          decision.record.attempts,
          decision.record.topUpId,
        );
        return { status: "retry", record: decision.record };
      }
      const r = cmd.record;
      this.sql(
        `INSERT INTO top_ups (top_up_id, user_id, network, asset, payer, nonce, pay_to, amount_atomic, amount_credits, state, created_at, attempted_at, attempts, requirements, payload)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`,
      ).run(
        r.topUpId,
        r.userId,
        r.network,
        r.asset,
        r.payer,
        r.nonce,
        r.payTo,
        r.amountAtomic,
        r.amountCredits,
        ms(r.createdAt),
        ms(r.attemptedAt),
        r.attempts,
        r.requirements,
        r.payload,
      );
      return {
        status: "started",
        record: toTopUp(this.sql("SELECT * FROM top_ups WHERE top_up_id = ?").get(r.topUpId) as unknown as TopUpRow),
      };
    });
  }

  async finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish> {
    return this.transaction((): TopUpFinish => {
      const row = this.sql("SELECT * FROM top_ups WHERE top_up_id = ?").get(cmd.topUpId) as TopUpRow | undefined;
      if (!row) return { status: "unknown" };
      const existing = toTopUp(row);
      if (existing.state !== "pending") return { status: "already", record: existing };
      const record = finishedTopUp(existing, cmd.outcome, cmd.now);
      this.sql(
        "UPDATE top_ups SET state = ?, completed_at = ?, tx_reference = ?, failure_reason = ?, settlement = ? WHERE top_up_id = ? AND state = 'pending'",
      ).run(
        record.state,
        msOrNull(record.completedAt),
        record.transaction ?? null,
        record.failureReason ?? null,
        record.settlement ?? null,
        record.topUpId,
      );
      if (record.state !== "credited") return { status: "finished", record };
      // One mechanism for money in: a grant entry keyed by the top-up id (journal unique on reference and kind).
      const entry = this.move(record.userId, "grant", record.topUpId, record.amountCredits, 0, cmd.now, TOP_UP_REASON);
      this.insertUsage(topUpUsageItem(entry, record));
      return { status: "finished", record, wallet: this.walletOf(record.userId), entry };
    });
  }

  async listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]> {
    const rows = this.sql("SELECT * FROM top_ups WHERE state = 'pending' AND attempted_at <= ? ORDER BY attempted_at, seq LIMIT ?").all(
      ms(staleBefore),
      limit,
    );
    return (rows as unknown as TopUpRow[]).map(toTopUp);
  }

  /** Records the usage item of an ended hold once; true when it was recorded by this call. */
  private recordUsage(hold: Hold, cmd: SettleCommand): boolean {
    if (!cmd.usage) return false;
    return this.insertUsage(usageItemFor(hold, cmd.usage));
  }

  /** Inserts a usage item unless its hold has one already; true when inserted. */
  private insertUsage(item: UsageItem): boolean {
    const inserted = this.sql(
      `INSERT INTO usage (item_key, kind, hold_id, user_id, usage_id, created_at, product_key, capability_key, route_key, provider, network_key, status,
                          duration_ms, agent_name, trace_id, error_code, credits_charged, input_tokens, output_tokens,
                          amount_credits, reference, reason, operator, operator_name, decision_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (hold_id) DO NOTHING`,
    ).run(
      usagePosition(item).key,
      item.kind,
      item.holdId ?? null,
      item.userId,
      item.usageId,
      ms(item.createdAt),
      item.productKey,
      item.capabilityKey,
      item.routeKey,
      item.provider,
      item.networkKey,
      item.status,
      item.durationMs,
      item.agentName ?? null,
      item.traceId,
      item.errorCode ?? null,
      item.creditsCharged,
      item.inputTokens ?? null,
      item.outputTokens ?? null,
      item.amountCredits ?? null,
      item.reference ?? null,
      item.reason ?? null,
      item.operator ?? null,
      item.operatorName ?? null,
      item.decisionJson ?? null,
    ).changes;
    return Number(inserted) === 1;
  }

  /**
   * Books what a settlement of the ended `hold` carries, each once (inside the settlement's
   * transaction): its payments, the loss of each when the hold charged nothing, its resources (the
   * first owner stays). Returns what was new.
   */
  private book(hold: Hold, cmd: SettleCommand): BookedFacts {
    const booked: BookedFacts = { payments: [], losses: [], resourceConflicts: [] };
    const carried = bookedPayments(hold, cmd.payments ?? [], cmd.now).map((p) => {
      const inserted = this.sql(
        `INSERT INTO payments (payment_id, hold_id, user_id, execution_id, route_key, rail, network, asset, amount_atomic, amount_micro_usd,
                               pay_to, payer, reference, settlement, booked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (payment_id) DO NOTHING`,
      ).run(
        p.paymentId,
        p.holdId,
        p.userId,
        p.executionId ?? null,
        p.routeKey,
        p.rail,
        p.network,
        p.asset,
        p.amountAtomic,
        p.amountMicroUsd,
        p.payTo,
        p.payer,
        p.reference ?? null,
        p.settlement,
        ms(p.bookedAt),
      ).changes;
      if (Number(inserted) === 1) {
        booked.payments.push(p);
        return p;
      }
      return toPayment(this.sql("SELECT * FROM payments WHERE payment_id = ?").get(p.paymentId) as unknown as PaymentRow);
    });
    for (const loss of platformLosses(hold, cmd.kind, carried, cmd.usage?.errorCode, cmd.now)) {
      const inserted = this.sql(
        "INSERT INTO platform_losses (payment_id, reason, amount_micro_usd, error_code, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (payment_id) DO NOTHING",
      ).run(loss.paymentId, loss.reason, loss.amountMicroUsd, loss.errorCode ?? null, ms(loss.createdAt)).changes;
      if (Number(inserted) === 1) booked.losses.push(loss);
    }
    for (const r of ownedResources(hold, cmd.resources ?? [], cmd.now)) {
      const inserted = this.sql(
        `INSERT INTO resources (kind, resource_id, provider, user_id, hold_id, execution_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind, resource_id) DO NOTHING`,
      ).run(r.kind, r.resourceId, r.provider, r.userId, r.holdId, r.executionId ?? null, ms(r.createdAt)).changes;
      if (Number(inserted) === 1) continue;
      const owner = this.sql("SELECT * FROM resources WHERE kind = ? AND resource_id = ?").get(
        r.kind,
        r.resourceId,
      ) as unknown as ResourceRow;
      if (owner.user_id !== r.userId) booked.resourceConflicts.push(toResource(owner));
    }
    return booked;
  }

  /** Ends the execution with `result` when it is the user's and still open (the first completion wins). */
  private complete(executionId: string, userId: string, result: StoredResult, now: Date): CompleteOutcome {
    const record = this.liveExecution(executionId, now);
    if (!record || record.userId !== userId) return "not_found";
    const completed = completedExecution(record, result, now);
    if (!completed) return "already_completed";
    this.putExecution(completed);
    return "completed";
  }

  /** Inserts or replaces the execution record with this id (its position in the table stays). */
  private putExecution(record: ExecutionRecord): void {
    this.sql(
      `INSERT INTO executions (execution_id, user_id, capability_key, idempotency_key, request_hash, state, lease_expires_at, created_at,
                               expires_at, completed_at, hold_ids, result)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (execution_id) DO UPDATE SET
         user_id = excluded.user_id, capability_key = excluded.capability_key, idempotency_key = excluded.idempotency_key,
         request_hash = excluded.request_hash, state = excluded.state, lease_expires_at = excluded.lease_expires_at,
         created_at = excluded.created_at, expires_at = excluded.expires_at, completed_at = excluded.completed_at,
         hold_ids = excluded.hold_ids, result = excluded.result`,
    ).run(
      record.executionId,
      record.userId,
      record.capabilityKey,
      record.idempotencyKey ?? null,
      record.requestHash ?? null,
      record.state,
      ms(record.leaseExpiresAt),
      ms(record.createdAt),
      ms(record.expiresAt),
      msOrNull(record.completedAt),
      JSON.stringify(record.holdIds),
      record.result === undefined ? null : JSON.stringify(record.result),
    );
  }

  private executionById(executionId: string): ExecutionRecord | null {
    const row = this.sql("SELECT * FROM executions WHERE execution_id = ?").get(executionId) as ExecutionRow | undefined;
    return row ? toExecution(row) : null;
  }

  /** An execution, unless past its retention (then it counts as absent). */
  private liveExecution(executionId: string, now: Date): ExecutionRecord | null {
    const record = this.executionById(executionId);
    return record && !isPastRetention(record, now) ? record : null;
  }

  /** The states of an execution's holds; a hold that is not stored counts as ended. */
  private holdStates(record: ExecutionRecord): Hold["state"][] {
    const stateOf = this.sql("SELECT state FROM holds WHERE hold_id = ?");
    return record.holdIds.map((id) => (stateOf.get(id) as { state: Hold["state"] } | undefined)?.state ?? "released");
  }

  /** Deletes executions past their retention (their keys go with them), at most once a minute. */
  private purgePastRetention(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    this.sql("DELETE FROM executions WHERE expires_at <= ?").run(ms(now));
  }

  private insertHold(hold: Hold): void {
    this.sql(
      `INSERT INTO holds (hold_id, user_id, amount_credits, state, captured_credits, created_at, expires_at, route_key, settled_at, execution_id,
                          key_id, agent_name, capability_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      hold.holdId,
      hold.userId,
      hold.amountCredits,
      hold.state,
      hold.capturedCredits,
      ms(hold.createdAt),
      ms(hold.expiresAt),
      hold.routeKey,
      msOrNull(hold.settledAt),
      hold.executionId ?? null,
      hold.keyId ?? null,
      hold.agentName ?? null,
      hold.capabilityKey ?? null,
    );
  }

  /** The key-wide policy and the agent's, in check order. */
  private policiesOf(keyId: string, agentName: string | undefined): SpendPolicy[] {
    const rows = this.sql("SELECT * FROM spend_policies WHERE key_id = ? AND agent_name IN ('', ?) ORDER BY agent_name").all(
      keyId,
      policyAgentKey(agentName),
    ) as unknown as SpendPolicyRow[];
    return rows.map(toSpendPolicy);
  }

  /** What the holds a policy covers spent since `since`'s day, per capability: the period's buckets (one per day, capability and agent). */
  private usageOf(policy: Pick<SpendPolicy, "keyId" | "agentName">, since: Date): SpendUsage {
    const byAgent = policy.agentName !== undefined ? " AND agent_name = ?" : "";
    const params: SQLInputValue[] = [policy.keyId, periodStartDay(since), ...(policy.agentName !== undefined ? [policy.agentName] : [])];
    const rows = this.sql(
      `SELECT capability_key AS capabilityKey, SUM(held_credits) AS heldCredits, SUM(held_count) AS heldCount,
              SUM(captured_credits) AS capturedCredits, SUM(captured_count) AS capturedCount
       FROM spend_buckets WHERE key_id = ? AND day >= ?${byAgent} GROUP BY capability_key`,
    ).all(...params) as unknown as (SpendBucketDelta & { capabilityKey: string })[];
    return spendUsageOfBuckets(rows);
  }

  /**
   * Moves the spend bucket of `hold` (none without spend attribution) by `delta`, in the caller's transaction:
   * a new hold creates or grows it; an ending updates the row its hold created (CHECKs would refuse a negative insert).
   */
  private moveSpend(hold: Hold, delta: SpendBucketDelta): void {
    const at = spendBucketOf(hold);
    if (!at) return;
    const key = [at.keyId, at.day, at.agentName, at.capabilityKey];
    const values = [delta.heldCredits, delta.heldCount, delta.capturedCredits, delta.capturedCount];
    if (delta.heldCount > 0) {
      this.sql(
        `INSERT INTO spend_buckets (key_id, day, agent_name, capability_key, held_credits, held_count, captured_credits, captured_count)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (key_id, day, agent_name, capability_key) DO UPDATE SET held_credits = held_credits + excluded.held_credits,
           held_count = held_count + excluded.held_count, captured_credits = captured_credits + excluded.captured_credits,
           captured_count = captured_count + excluded.captured_count`,
      ).run(...key, ...values);
      return;
    }
    this.sql(
      `UPDATE spend_buckets SET held_credits = held_credits + ?, held_count = held_count + ?, captured_credits = captured_credits + ?,
         captured_count = captured_count + ? WHERE key_id = ? AND day = ? AND agent_name = ? AND capability_key = ?`,
    ).run(...values, ...key);
  }

  private quoteById(quoteId: string): QuoteRecord | null {
    const row = this.sql("SELECT * FROM quotes WHERE quote_id = ?").get(quoteId) as QuoteRow | undefined;
    return row ? toQuote(row) : null;
  }

  private holdById(holdId: string): Hold | null {
    const row = this.sql("SELECT * FROM holds WHERE hold_id = ?").get(holdId) as HoldRow | undefined;
    return row ? toHold(row) : null;
  }

  private apiKeyWhere(column: "key_id" | "key_hash", value: string): ApiKeyRecord | null {
    const row = this.sql(`SELECT * FROM api_keys WHERE ${column} = ?`).get(value) as ApiKeyRow | undefined;
    return row ? toApiKey(row) : null;
  }

  private walletRow(userId: string): Wallet | null {
    const row = this.sql("SELECT * FROM wallets WHERE user_id = ?").get(userId) as WalletRow | undefined;
    return row ? toWallet(row) : null;
  }

  /** The user's wallet; a user without one reads as empty. */
  private walletOf(userId: string): Wallet {
    return this.walletRow(userId) ?? emptyWallet(userId);
  }
}

type TransactionMode = "IMMEDIATE" | "DEFERRED";

/** One turn's group transaction: the operations waiting for its COMMIT. */
interface CommitGroup {
  waiters: { resolve: () => void; reject: (err: unknown) => void }[];
  /** Committed or rolled back: no operation may join it any more. */
  ended: boolean;
}

/** BEGIN … COMMIT around the synchronous `fn`; ROLLBACK and rethrow when it throws. */
function inTransaction<T>(db: DatabaseSync, fn: () => T, mode: TransactionMode = "IMMEDIATE"): T {
  db.exec(`BEGIN ${mode}`);
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw err;
  }
}

/** Brings the schema to SCHEMA_VERSION and writes the store id once; idempotent, safe for concurrent openers. */
function migrate(db: DatabaseSync, path: string): void {
  inTransaction(db, () => {
    db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT");
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    const version = row ? Number(row.value) : 0;
    if (!Number.isInteger(version) || version > SCHEMA_VERSION) {
      throw new Error(
        `ledger sqlite ${path}: schema version ${row?.value} is newer than this ledger's ${SCHEMA_VERSION}; run a newer ledger`,
      );
    }
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      String(SCHEMA_VERSION),
    );
    // The identity of this data: written by the first opener only, kept for the file's life.
    db.prepare("INSERT INTO meta (key, value) VALUES ('store_id', ?) ON CONFLICT (key) DO NOTHING").run(newId("store"));
  });
}

const ms = (date: Date): number => date.getTime();
const msOrNull = (date: Date | undefined): SQLInputValue => (date === undefined ? null : date.getTime());

interface TopUpRow {
  top_up_id: string;
  user_id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  pay_to: string;
  amount_atomic: string;
  amount_credits: number;
  state: TopUpRecord["state"];
  created_at: number;
  attempted_at: number;
  attempts: number;
  completed_at: number | null;
  tx_reference: string | null;
  failure_reason: string | null;
  settlement: string | null;
  requirements: string;
  payload: string;
}

function toTopUp(row: TopUpRow): TopUpRecord {
  return {
    topUpId: row.top_up_id,
    userId: row.user_id,
    network: row.network,
    asset: row.asset,
    payer: row.payer,
    nonce: row.nonce,
    payTo: row.pay_to,
    amountAtomic: row.amount_atomic,
    amountCredits: row.amount_credits,
    state: row.state,
    createdAt: new Date(row.created_at),
    attemptedAt: new Date(row.attempted_at),
    attempts: row.attempts,
    ...(row.completed_at !== null ? { completedAt: new Date(row.completed_at) } : {}),
    ...(row.tx_reference !== null ? { transaction: row.tx_reference } : {}),
    ...(row.failure_reason !== null ? { failureReason: row.failure_reason } : {}),
    ...(row.settlement !== null ? { settlement: row.settlement } : {}),
    requirements: row.requirements,
    payload: row.payload,
  };
}

function toWallet(row: WalletRow): Wallet {
  return { userId: row.user_id, balanceCredits: row.balance_credits, heldCredits: row.held_credits };
}

function toHold(row: HoldRow): Hold {
  return {
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    holdId: row.hold_id,
    userId: row.user_id,
    amountCredits: row.amount_credits,
    state: row.state,
    capturedCredits: row.captured_credits,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    routeKey: row.route_key,
    ...(row.settled_at !== null ? { settledAt: new Date(row.settled_at) } : {}),
    ...(row.key_id !== null ? { keyId: row.key_id } : {}),
    ...(row.agent_name !== null ? { agentName: row.agent_name } : {}),
    ...(row.capability_key !== null ? { capabilityKey: row.capability_key } : {}),
  };
}

function toSpendPolicy(row: SpendPolicyRow): SpendPolicy {
  return {
    keyId: row.key_id,
    ...(row.agent_name !== "" ? { agentName: row.agent_name } : {}),
    ...(row.budget_credits !== null ? { budgetCredits: row.budget_credits } : {}),
    reset: row.reset,
    capabilityCaps: JSON.parse(row.capability_caps) as CapabilityCap[],
    ...(row.max_price_credits !== null ? { maxPriceCredits: row.max_price_credits } : {}),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function toQuote(row: QuoteRow): QuoteRecord {
  return {
    quoteId: row.quote_id,
    userId: row.user_id,
    keyId: row.key_id,
    ...(row.agent_name !== null ? { agentName: row.agent_name } : {}),
    capabilityKey: row.capability_key,
    routeKey: row.route_key,
    amountCredits: row.amount_credits,
    requestHash: row.request_hash,
    reservationHoldId: row.reservation_hold_id,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    ...(row.used_by_hold_id !== null ? { usedByHoldId: row.used_by_hold_id } : {}),
  };
}

function toEntry(row: JournalRow): JournalEntry {
  return {
    entryId: row.entry_id,
    userId: row.user_id,
    kind: row.kind,
    amountCredits: row.amount_credits,
    heldDeltaCredits: row.held_delta_credits,
    referenceId: row.reference_id,
    createdAt: new Date(row.created_at),
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.operator !== null ? { operator: row.operator } : {}),
    ...(row.operator_name !== null ? { operatorName: row.operator_name } : {}),
  };
}

function toUsage(row: UsageRow): UsageItem {
  return {
    usageId: row.usage_id,
    createdAt: new Date(row.created_at),
    productKey: row.product_key,
    capabilityKey: row.capability_key,
    routeKey: row.route_key,
    provider: row.provider,
    networkKey: row.network_key,
    status: row.status,
    durationMs: row.duration_ms,
    ...(row.agent_name !== null ? { agentName: row.agent_name } : {}),
    traceId: row.trace_id,
    ...(row.error_code !== null ? { errorCode: row.error_code } : {}),
    ...(row.input_tokens !== null ? { inputTokens: row.input_tokens } : {}),
    ...(row.output_tokens !== null ? { outputTokens: row.output_tokens } : {}),
    kind: row.kind,
    userId: row.user_id,
    ...(row.hold_id !== null ? { holdId: row.hold_id } : {}),
    creditsCharged: row.credits_charged,
    ...(row.amount_credits !== null ? { amountCredits: row.amount_credits } : {}),
    ...(row.reference !== null ? { reference: row.reference } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.operator !== null ? { operator: row.operator } : {}),
    ...(row.operator_name !== null ? { operatorName: row.operator_name } : {}),
    ...(row.decision_json !== null ? { decisionJson: row.decision_json } : {}),
  };
}

/**
 * listUsage's statement: the user's items `query` selects, newest first by (created_at, item_key), each
 * filter an equality or a range the indexes of schema 5 cover (exported so a test can read its plan).
 */
export function usageQuerySql(userId: string, limit: number, query: UsageQuery): { sql: string; params: SQLInputValue[] } {
  const where = ["user_id = ?"];
  const params: SQLInputValue[] = [userId];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`${column} = ?`);
    params.push(value);
  };
  equal("kind", query.kind);
  equal("capability_key", query.capabilityKey);
  equal("agent_name", query.agentName);
  if (query.from) {
    where.push("created_at >= ?");
    params.push(ms(query.from));
  }
  if (query.to) {
    where.push("created_at < ?");
    params.push(ms(query.to));
  }
  if (query.after) {
    where.push("(created_at, item_key) < (?, ?)");
    params.push(ms(query.after.createdAt), query.after.key);
  }
  params.push(limit);
  return { sql: `SELECT * FROM usage WHERE ${where.join(" AND ")} ORDER BY created_at DESC, item_key DESC LIMIT ?`, params };
}

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    keyId: row.key_id,
    userId: row.user_id,
    keyHash: row.key_hash,
    prefix: row.prefix,
    name: row.name,
    createdAt: new Date(row.created_at),
    ...(row.revoked_at !== null ? { revokedAt: new Date(row.revoked_at) } : {}),
    ...keyLimitsOf(row),
  };
}

/** `{ limits }` with the columns that are set, or nothing when none is. */
function keyLimitsOf(row: ApiKeyRow): { limits?: ApiKeyLimits } {
  const limits: ApiKeyLimits = {};
  if (row.limit_rps !== null) limits.requestsPerSecond = row.limit_rps;
  if (row.limit_burst !== null) limits.burst = row.limit_burst;
  if (row.limit_in_flight !== null) limits.maxInFlight = row.limit_in_flight;
  return Object.keys(limits).length ? { limits } : {};
}

interface ResourceRow {
  kind: string;
  resource_id: string;
  provider: string;
  user_id: string;
  hold_id: string;
  execution_id: string | null;
  created_at: number;
}

interface PaymentRow {
  payment_id: string;
  hold_id: string;
  user_id: string;
  execution_id: string | null;
  route_key: string;
  rail: OutgoingPayment["rail"];
  network: string;
  asset: string;
  amount_atomic: string;
  amount_micro_usd: number;
  pay_to: string;
  payer: string;
  reference: string | null;
  settlement: OutgoingPayment["settlement"];
  booked_at: number;
}

interface LossRow extends PaymentRow {
  reason: PlatformLoss["reason"];
  loss_micro_usd: number;
  error_code: string | null;
  loss_created_at: number;
}

function toResource(row: ResourceRow): OwnedResource {
  return {
    kind: row.kind,
    resourceId: row.resource_id,
    provider: row.provider,
    userId: row.user_id,
    holdId: row.hold_id,
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    createdAt: new Date(row.created_at),
  };
}

function toPayment(row: PaymentRow): OutgoingPayment {
  return {
    paymentId: row.payment_id,
    holdId: row.hold_id,
    userId: row.user_id,
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    routeKey: row.route_key,
    rail: row.rail,
    network: row.network,
    asset: row.asset,
    amountAtomic: row.amount_atomic,
    amountMicroUsd: row.amount_micro_usd,
    payTo: row.pay_to,
    payer: row.payer,
    ...(row.reference !== null ? { reference: row.reference } : {}),
    settlement: row.settlement,
    bookedAt: new Date(row.booked_at),
  };
}

function toLoss(row: LossRow): PlatformLoss {
  return {
    paymentId: row.payment_id,
    reason: row.reason,
    amountMicroUsd: row.loss_micro_usd,
    holdId: row.hold_id,
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    userId: row.user_id,
    routeKey: row.route_key,
    rail: row.rail,
    network: row.network,
    amountAtomic: row.amount_atomic,
    ...(row.reference !== null ? { reference: row.reference } : {}),
    settlement: row.settlement,
    ...(row.error_code !== null ? { errorCode: row.error_code } : {}),
    createdAt: new Date(row.loss_created_at),
  };
}

function toExecution(row: ExecutionRow): ExecutionRecord {
  return {
    executionId: row.execution_id,
    userId: row.user_id,
    capabilityKey: row.capability_key,
    ...(row.idempotency_key !== null ? { idempotencyKey: row.idempotency_key } : {}),
    ...(row.request_hash !== null ? { requestHash: row.request_hash } : {}),
    state: row.state,
    leaseExpiresAt: new Date(row.lease_expires_at),
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    ...(row.completed_at !== null ? { completedAt: new Date(row.completed_at) } : {}),
    holdIds: JSON.parse(row.hold_ids) as string[],
    ...(row.result !== null ? { result: JSON.parse(row.result) as StoredResult } : {}),
  };
}
