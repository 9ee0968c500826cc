// The SQLite ledger's schema: one migration per version, applied in one transaction when a file is
// opened (a newer file is refused rather than misread), and the store id written once with the data.
import type { DatabaseSync } from "node:sqlite";
import { newId } from "@agentic/platform";
import { normalizeStoredAgentNames } from "./normalize-agent-names";

/** The schema this code reads and writes; a newer file is refused rather than misread. */
export const SCHEMA_VERSION = 10;

/**
 * MIGRATIONS[v] brings a database at schema version v to v + 1 (0 is an empty file): SQL, or a function
 * for what SQL cannot say (Unicode normalization).
 */
export const MIGRATIONS: readonly (string | ((db: DatabaseSync) => void))[] = [
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
  // 8: keys issued for one agent or requiring one of several; the default agent policy; agent names
  // normalized (NFKC, case folded, invisible characters removed) where policies compare them.
  (db) => {
    db.exec(`
    ALTER TABLE api_keys ADD COLUMN agent_name TEXT; -- the one agent the key is issued for
    ALTER TABLE api_keys ADD COLUMN agent_names TEXT; -- JSON array: the agents a request must name one of
    -- SQLite cannot change a primary key in place: the table is rebuilt, every row kept.
    CREATE TABLE spend_policies_v8 (
      key_id TEXT NOT NULL,
      agent_name TEXT NOT NULL, -- '' for the key-wide policy and the default agent policy
      other_agents INTEGER NOT NULL DEFAULT 0 CHECK (other_agents IN (0, 1)), -- 1: the default agent policy
      budget_credits INTEGER CHECK (budget_credits >= 1),
      reset TEXT NOT NULL CHECK (reset IN ('daily', 'weekly', 'monthly', 'none')),
      capability_caps TEXT NOT NULL,
      max_price_credits INTEGER CHECK (max_price_credits >= 1),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      CHECK (other_agents = 0 OR agent_name = ''),
      PRIMARY KEY (key_id, agent_name, other_agents)
    ) STRICT;
    INSERT INTO spend_policies_v8 (key_id, agent_name, budget_credits, reset, capability_caps, max_price_credits, created_at, updated_at)
      SELECT key_id, agent_name, budget_credits, reset, capability_caps, max_price_credits, created_at, updated_at FROM spend_policies;
    DROP TABLE spend_policies;
    ALTER TABLE spend_policies_v8 RENAME TO spend_policies;
    `);
    normalizeStoredAgentNames(db);
  },
  // 9: a key's open quotes, counted by each new quote (their reservations count against the key's budgets, and their number is capped).
  `
  CREATE INDEX quotes_open_by_key ON quotes (key_id, expires_at) WHERE used_by_hold_id IS NULL;
  `,
  // 10: vendor work on our own keys that charged nothing (at risk in the reconciliation; a per-user daily allowance).
  `
  CREATE TABLE uncharged_work (
    seq INTEGER PRIMARY KEY,
    hold_id TEXT NOT NULL UNIQUE REFERENCES holds (hold_id),
    user_id TEXT NOT NULL,
    execution_id TEXT,
    route_key TEXT NOT NULL,
    reason TEXT NOT NULL,
    estimated_micro_usd INTEGER NOT NULL CHECK (estimated_micro_usd >= 0),
    day TEXT NOT NULL, -- YYYY-MM-DD (UTC) of created_at
    created_at INTEGER NOT NULL
  ) STRICT;
  -- The allowance's count: a user's on one day.
  CREATE INDEX uncharged_work_by_user_day ON uncharged_work (user_id, day);
  -- The reconciliation's losses, by when they were written.
  CREATE INDEX uncharged_work_by_created_at ON uncharged_work (created_at, seq);
  `,
];

/** Brings a database at schema version `v` to `v` + 1 (MIGRATIONS[v]), inside the caller's transaction. */
export function applyMigration(db: DatabaseSync, v: number): void {
  const migration = MIGRATIONS[v]!;
  if (typeof migration === "string") db.exec(migration);
  else migration(db);
}

type TransactionMode = "IMMEDIATE" | "DEFERRED";

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
export function migrate(db: DatabaseSync, path: string): void {
  inTransaction(db, () => {
    db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT");
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    const version = row ? Number(row.value) : 0;
    if (!Number.isInteger(version) || version > SCHEMA_VERSION) {
      throw new Error(
        `ledger sqlite ${path}: schema version ${row?.value} is newer than this ledger's ${SCHEMA_VERSION}; run a newer ledger`,
      );
    }
    for (let v = version; v < SCHEMA_VERSION; v++) applyMigration(db, v);
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      String(SCHEMA_VERSION),
    );
    // The identity of this data: written by the first opener only, kept for the file's life.
    db.prepare("INSERT INTO meta (key, value) VALUES ('store_id', ?) ON CONFLICT (key) DO NOTHING").run(newId("store"));
  });
}
