// Migration 1 of the MongoDB ledger (migrations.ts): the wallets' validator (balance and held >= 0)
// and every index the operations and their guards rely on (unique ones are guards: one movement per
// reference, one execution per Idempotency-Key, one record per key hash). Idempotent: an existing
// collection or an index of the same name and keys is left as it is.
import { MongoServerError } from "mongodb";
import { COLLECTIONS, type MongoDb } from "./mongo-db";

export async function createWalletValidatorAndIndexes(m: MongoDb): Promise<void> {
  const nonNegative = { bsonType: ["int", "long", "double", "decimal"], minimum: 0 };
  try {
    await m.db.createCollection(COLLECTIONS.wallets, {
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
    m.holds.createIndexes([
      // The sweeper's query; holds are otherwise read by _id only.
      { key: { expiresAt: 1 }, name: "held_by_expiry", partialFilterExpression: { state: "held" } },
      // The reconciliation's charges: captured holds by when they were applied.
      { key: { settledAt: 1 }, name: "captured_by_settled_at", partialFilterExpression: { state: "captured" } },
    ]),
    m.spendPolicies.createIndexes([{ key: { keyId: 1 }, name: "by_key" }]),
    // Uncharged vendor work: the allowance's count (a user's on one day), and the reconciliation's losses by time.
    m.unchargedWork.createIndexes([
      { key: { userId: 1, day: 1 }, name: "by_user_and_day" },
      { key: { createdAt: 1 }, name: "by_created_at" },
    ]),
    // A key's open quotes, counted by each new quote (capped per key).
    m.quotes.createIndexes([{ key: { keyId: 1, expiresAt: 1 }, name: "by_key_and_expiry" }]),
    // A spend policy's usage: its key's buckets from the period's first day.
    m.spendBuckets.createIndexes([{ key: { keyId: 1, day: 1 }, name: "by_key_and_day" }]),
    // Resources are read by _id (kind, resource id); payments and losses by time range.
    m.payments.createIndexes([{ key: { bookedAt: 1 }, name: "by_booked_at" }]),
    m.losses.createIndexes([{ key: { createdAt: 1 }, name: "by_created_at" }]),
    // Top-ups are read by _id; the reconciler reads pending ones by last attempt.
    m.topUps.createIndexes([{ key: { attemptedAt: 1 }, name: "pending_by_attempt", partialFilterExpression: { state: "pending" } }]),
    m.journal.createIndexes([
      // At most one movement of each kind per grant or hold id: a second capture cannot be written.
      { key: { referenceId: 1, kind: 1 }, name: "one_movement_per_reference", unique: true },
      { key: { userId: 1, seq: 1 }, name: "by_user_in_order", unique: true },
      // The reconciliation's credit movements (grants, refunds, adjustments) by when they were written.
      { key: { kind: 1, createdAt: 1 }, name: "by_kind_and_time" },
    ]),
    // Exactly listUsage's filter and sort ({createdAt: -1, _id: -1}), so the sort needs no memory, also
    // after each equality filter; its cursor and time range are ranges on createdAt and _id.
    m.usage.createIndexes([
      { key: { userId: 1, createdAt: -1, _id: -1 }, name: "by_user_newest_first_then_id" },
      { key: { userId: 1, kind: 1, createdAt: -1, _id: -1 }, name: "by_user_kind_newest_first" },
      { key: { userId: 1, capabilityKey: 1, createdAt: -1, _id: -1 }, name: "by_user_capability_newest_first" },
      { key: { userId: 1, agentName: 1, createdAt: -1, _id: -1 }, name: "by_user_agent_newest_first" },
      // One credit movement per reference, whatever its kind: of two concurrent first writes one inserts.
      { key: { reference: 1 }, name: "one_item_per_reference", unique: true, partialFilterExpression: { reference: { $exists: true } } },
    ]),
    m.apiKeys.createIndexes([
      { key: { keyHash: 1 }, name: "one_record_per_key", unique: true },
      { key: { userId: 1, createdAt: 1 }, name: "by_user" },
    ]),
    m.executions.createIndexes([
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
