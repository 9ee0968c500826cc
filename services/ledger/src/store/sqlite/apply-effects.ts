// Writes a decision's effects (domain/effects.ts) inside the caller's transaction, in the
// effects' field order. Beneath the decision's checks, the last guards stay here: a hold ends only
// while `held`, a quote is drawn only while unused, a top-up ends only while pending, a wallet never
// goes below zero (and CHECK constraints, unique indexes); a guard that trips throws, and the
// transaction writes nothing.
import type { LedgerEffects } from "../../domain/effects";
import { emptyWallet, usagePosition } from "../../domain/rules";
import { spendBucketOf, type SpendBucketDelta } from "../../domain/spend-policy";
import type { ExecutionRecord, Hold, JournalEntry, UsageItem } from "../../domain/types";
import { walletRow } from "./reads";
import { ms, msOrNull, type SqliteDb } from "./sqlite-db";

export function applyEffects(db: SqliteDb, effects: LedgerEffects): void {
  for (const hold of effects.endedHolds) endHold(db, hold);
  for (const entry of effects.moves) move(db, entry);
  for (const hold of effects.newHolds) insertHold(db, hold);
  for (const { hold, delta } of effects.spend) moveSpend(db, hold, delta);
  for (const q of effects.newQuotes) {
    db.sql(
      `INSERT INTO quotes (quote_id, user_id, key_id, agent_name, capability_key, route_key, amount_credits, request_hash, reservation_hold_id, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      q.quoteId,
      q.userId,
      q.keyId,
      q.agentName ?? null,
      q.capabilityKey,
      q.routeKey,
      q.amountCredits,
      q.requestHash,
      q.reservationHoldId,
      ms(q.createdAt),
      ms(q.expiresAt),
    );
  }
  for (const { quoteId, holdId } of effects.usedQuotes) {
    const changed = db
      .sql("UPDATE quotes SET used_by_hold_id = ? WHERE quote_id = ? AND used_by_hold_id IS NULL")
      .run(holdId, quoteId).changes;
    if (Number(changed) !== 1) throw new Error(`ledger invariant: quote ${quoteId} was drawn twice`);
  }
  for (const r of effects.endedTopUps) {
    const changed = db
      .sql(
        "UPDATE top_ups SET state = ?, completed_at = ?, tx_reference = ?, failure_reason = ?, settlement = ? WHERE top_up_id = ? AND state = 'pending'",
      )
      .run(r.state, msOrNull(r.completedAt), r.transaction ?? null, r.failureReason ?? null, r.settlement ?? null, r.topUpId).changes;
    if (Number(changed) !== 1) throw new Error(`ledger invariant: top-up ${r.topUpId} ended twice`);
  }
  for (const { record } of effects.executions) putExecution(db, record);
  for (const item of effects.usage) insertUsage(db, item);
  for (const p of effects.payments) {
    db.sql(
      `INSERT INTO payments (payment_id, hold_id, user_id, execution_id, route_key, rail, network, asset, amount_atomic, amount_micro_usd,
                             pay_to, payer, reference, settlement, booked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    );
  }
  for (const l of effects.losses) {
    db.sql("INSERT INTO platform_losses (payment_id, reason, amount_micro_usd, error_code, created_at) VALUES (?, ?, ?, ?, ?)").run(
      l.paymentId,
      l.reason,
      l.amountMicroUsd,
      l.errorCode ?? null,
      ms(l.createdAt),
    );
  }
  for (const w of effects.unchargedWork) {
    db.sql(
      `INSERT INTO uncharged_work (hold_id, user_id, execution_id, route_key, reason, estimated_micro_usd, day, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(w.holdId, w.userId, w.executionId ?? null, w.routeKey, w.reason, w.estimatedCostMicroUsd, w.day, ms(w.createdAt));
  }
  for (const r of effects.resources) {
    db.sql(
      "INSERT INTO resources (kind, resource_id, provider, user_id, hold_id, execution_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(r.kind, r.resourceId, r.provider, r.userId, r.holdId, r.executionId ?? null, ms(r.createdAt));
  }
}

/** The hold leaves `held`; throws when it is no longer held (the transaction then writes nothing). */
function endHold(db: SqliteDb, hold: Hold): void {
  const changed = db
    .sql("UPDATE holds SET state = ?, captured_credits = ?, settled_at = ? WHERE hold_id = ? AND state = 'held'")
    .run(hold.state, hold.capturedCredits, msOrNull(hold.settledAt), hold.holdId).changes;
  if (Number(changed) !== 1) throw new Error(`ledger invariant: hold ${hold.holdId} changed during its settlement`);
}

/**
 * Applies one journal entry to its user's wallet (created when missing) and appends it. Refuses
 * (throws, so the transaction writes nothing) a movement that would take the balance or the held
 * credits below zero: decisions check first, this and the CHECK constraints are the last defence.
 */
function move(db: SqliteDb, entry: JournalEntry): void {
  const wallet = walletRow(db, entry.userId) ?? emptyWallet(entry.userId);
  const balanceCredits = wallet.balanceCredits + entry.amountCredits;
  const heldCredits = wallet.heldCredits + entry.heldDeltaCredits;
  if (balanceCredits < 0 || heldCredits < 0) {
    throw new Error(
      `ledger invariant: ${entry.kind} ${entry.referenceId} would leave ${entry.userId} at balance ${balanceCredits}, held ${heldCredits}`,
    );
  }
  db.sql(
    `INSERT INTO wallets (user_id, balance_credits, held_credits) VALUES (?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET balance_credits = excluded.balance_credits, held_credits = excluded.held_credits`,
  ).run(entry.userId, balanceCredits, heldCredits);
  db.sql(
    `INSERT INTO journal (entry_id, user_id, kind, amount_credits, held_delta_credits, reference_id, reason, created_at, operator, operator_name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.entryId,
    entry.userId,
    entry.kind,
    entry.amountCredits,
    entry.heldDeltaCredits,
    entry.referenceId,
    entry.reason ?? null,
    ms(entry.createdAt),
    entry.operator ?? null,
    entry.operatorName ?? null,
  );
}

function insertHold(db: SqliteDb, hold: Hold): void {
  db.sql(
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

/**
 * Moves the spend bucket of `hold` (none without spend attribution) by `delta`: a new hold creates or
 * grows it; an ending updates the row its hold created (CHECKs would refuse a negative insert).
 */
function moveSpend(db: SqliteDb, hold: Hold, delta: SpendBucketDelta): void {
  const at = spendBucketOf(hold);
  if (!at) return;
  const key = [at.keyId, at.day, at.agentName, at.capabilityKey];
  const values = [delta.heldCredits, delta.heldCount, delta.capturedCredits, delta.capturedCount];
  if (delta.heldCount > 0) {
    db.sql(
      `INSERT INTO spend_buckets (key_id, day, agent_name, capability_key, held_credits, held_count, captured_credits, captured_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key_id, day, agent_name, capability_key) DO UPDATE SET held_credits = held_credits + excluded.held_credits,
         held_count = held_count + excluded.held_count, captured_credits = captured_credits + excluded.captured_credits,
         captured_count = captured_count + excluded.captured_count`,
    ).run(...key, ...values);
    return;
  }
  db.sql(
    `UPDATE spend_buckets SET held_credits = held_credits + ?, held_count = held_count + ?, captured_credits = captured_credits + ?,
       captured_count = captured_count + ? WHERE key_id = ? AND day = ? AND agent_name = ? AND capability_key = ?`,
  ).run(...values, ...key);
}

/** Inserts or replaces the execution record with this id (its position in the table stays). */
export function putExecution(db: SqliteDb, record: ExecutionRecord): void {
  db.sql(
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

/** Inserts a usage item (a charge's hold, a movement's reference: each once, by unique index). */
function insertUsage(db: SqliteDb, item: UsageItem): void {
  db.sql(
    `INSERT INTO usage (item_key, kind, hold_id, user_id, usage_id, created_at, product_key, capability_key, route_key, provider, network_key, status,
                        duration_ms, agent_name, trace_id, error_code, credits_charged, input_tokens, output_tokens,
                        amount_credits, reference, reason, operator, operator_name, decision_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
  );
}
