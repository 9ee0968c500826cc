// The reads the SQLite store's operations load their facts with (inside their transaction).
import type { SQLInputValue } from "node:sqlite";
import type { QuoteRecord } from "../../domain/quote";
import { isPastRetention } from "../../domain/rules";
import {
  byPolicyOrder,
  coveringSpendScopes,
  periodStartDay,
  spendPeriod,
  spendUsageOfBuckets,
  type SpendAttribution,
  type SpendBucketDelta,
  type SpendCheck,
  type SpendPolicy,
  type SpendScope,
  type SpendUsage,
} from "../../domain/spend-policy";
import type { ExecutionRecord, Hold, JournalEntry, Wallet } from "../../domain/types";
import {
  toEntry,
  toExecution,
  toHold,
  toQuote,
  toSpendPolicy,
  toWallet,
  type ExecutionRow,
  type HoldRow,
  type JournalRow,
  type QuoteRow,
  type SpendPolicyRow,
  type WalletRow,
} from "./rows";
import type { SqliteDb } from "./sqlite-db";

export function walletRow(db: SqliteDb, userId: string): Wallet | null {
  const row = db.sql("SELECT * FROM wallets WHERE user_id = ?").get(userId) as WalletRow | undefined;
  return row ? toWallet(row) : null;
}

export function holdById(db: SqliteDb, holdId: string): Hold | null {
  const row = db.sql("SELECT * FROM holds WHERE hold_id = ?").get(holdId) as HoldRow | undefined;
  return row ? toHold(row) : null;
}

export function quoteById(db: SqliteDb, quoteId: string): QuoteRecord | null {
  const row = db.sql("SELECT * FROM quotes WHERE quote_id = ?").get(quoteId) as QuoteRow | undefined;
  return row ? toQuote(row) : null;
}

/** The grant, refund or adjustment entry under `reference` (of `kinds`), if any. */
export function movementEntry(db: SqliteDb, reference: string, kinds: "grant" | "movement"): JournalEntry | null {
  const row = (
    kinds === "grant"
      ? db.sql("SELECT * FROM journal WHERE reference_id = ? AND kind = 'grant'")
      : db.sql("SELECT * FROM journal WHERE reference_id = ? AND kind IN ('grant', 'refund', 'adjustment')")
  ).get(reference) as JournalRow | undefined;
  return row ? toEntry(row) : null;
}

export function executionById(db: SqliteDb, executionId: string): ExecutionRecord | null {
  const row = db.sql("SELECT * FROM executions WHERE execution_id = ?").get(executionId) as ExecutionRow | undefined;
  return row ? toExecution(row) : null;
}

/** An execution, unless past its retention (then it counts as absent). */
export function liveExecution(db: SqliteDb, executionId: string, now: Date): ExecutionRecord | null {
  const record = executionById(db, executionId);
  return record && !isPastRetention(record, now) ? record : null;
}

/** The states of an execution's holds; a hold that is not stored counts as ended. */
export function holdStates(db: SqliteDb, record: ExecutionRecord): Hold["state"][] {
  const stateOf = db.sql("SELECT state FROM holds WHERE hold_id = ?");
  return record.holdIds.map((id) => (stateOf.get(id) as { state: Hold["state"] } | undefined)?.state ?? "released");
}

/** Every policy of a key (key-wide, default agent, agents'), in check order: which cover a hold is the domain's choice (coveringSpendScopes). */
export function keyPoliciesOf(db: SqliteDb, keyId: string): SpendPolicy[] {
  const rows = db.sql("SELECT * FROM spend_policies WHERE key_id = ?").all(keyId) as unknown as SpendPolicyRow[];
  return rows.map(toSpendPolicy).sort(byPolicyOrder);
}

/** What the holds in `scope` spent since `since`'s day, per capability: the period's buckets (one per day, capability and agent; bucketInScope). */
export function spendUsageOf(db: SqliteDb, scope: SpendScope, since: Date): SpendUsage {
  const params: SQLInputValue[] = [scope.keyId, periodStartDay(since)];
  let byAgent = "";
  if (scope.agentName !== undefined) {
    byAgent = " AND agent_name = ?";
    params.push(scope.agentName);
  } else if (scope.exceptAgentNames?.length) {
    byAgent = " AND agent_name NOT IN (SELECT value FROM json_each(?))";
    params.push(JSON.stringify(scope.exceptAgentNames));
  }
  const rows = db
    .sql(
      `SELECT capability_key AS capabilityKey, SUM(held_credits) AS heldCredits, SUM(held_count) AS heldCount,
              SUM(captured_credits) AS capturedCredits, SUM(captured_count) AS capturedCount
       FROM spend_buckets WHERE key_id = ? AND day >= ?${byAgent} GROUP BY capability_key`,
    )
    .all(...params) as unknown as (SpendBucketDelta & { capabilityKey: string })[];
  return spendUsageOfBuckets(rows);
}

/** The policies covering `who` (key-wide, default agent, the agent's), each with what its scope has spent in its current period. */
export function spendChecks(db: SqliteDb, who: SpendAttribution, now: Date): SpendCheck[] {
  return coveringSpendScopes(keyPoliciesOf(db, who.keyId), who).map(({ policy, scope }) => ({
    policy,
    scope,
    usage: spendUsageOf(db, scope, spendPeriod(policy, now).start),
  }));
}

/** The key's open quotes now: not drawn by a hold, not expired. */
export function openQuotesOf(db: SqliteDb, keyId: string, now: Date): number {
  const row = db
    .sql("SELECT count(*) AS n FROM quotes WHERE key_id = ? AND used_by_hold_id IS NULL AND expires_at > ?")
    .get(keyId, now.getTime()) as {
    n: number;
  };
  return row.n;
}
