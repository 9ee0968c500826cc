// Writes a decision's effects (domain/effects.ts) inside the caller's session transaction,
// in the effects' field order. Every write is still a guard: a hold ends only while `held`, a quote is
// drawn only while unused, a top-up ends only while pending, an execution is written only while its
// rev is the one read, a wallet moves only while it covers the move (`$gte`), and payments, losses,
// resources and usage items are inserted only when absent. A concurrent transaction that wrote the
// same documents makes this one conflict and the driver runs it again on fresh facts; a guard that
// still trips is an invariant broken, and throws (nothing is written).
import type { ClientSession } from "mongodb";
import type { ExecutionWrite, LedgerEffects } from "../../domain/effects";
import { spendBucketOf } from "../../domain/spend-policy";
import type { JournalEntry } from "../../domain/types";
import { revOf, toExecutionDoc, resourceDocId } from "./docs";
import type { MongoDb } from "./mongo-db";

export async function applyEffects(m: MongoDb, effects: LedgerEffects, session: ClientSession): Promise<void> {
  for (const hold of effects.endedHolds) {
    const updated = await m.holds.updateOne(
      { _id: hold.holdId, state: "held" },
      { $set: { state: hold.state, capturedCredits: hold.capturedCredits, settledAt: hold.settledAt } },
      { session },
    );
    if (updated.modifiedCount !== 1) throw new Error(`ledger invariant: hold ${hold.holdId} changed during its settlement`);
  }
  for (const entry of effects.moves) await move(m, entry, session);
  for (const { holdId, ...doc } of effects.newHolds) await m.holds.insertOne({ _id: holdId, ...doc }, { session });
  for (const { hold, delta } of effects.spend) {
    const at = spendBucketOf(hold);
    if (!at) continue;
    // Created by a new hold, updated by its ending.
    await m.spendBuckets.updateOne(
      { _id: JSON.stringify([at.keyId, at.day, at.agentName, at.capabilityKey]) },
      { $inc: { ...delta }, $setOnInsert: { ...at } },
      { session, upsert: delta.heldCount > 0 },
    );
  }
  for (const { quoteId, ...doc } of effects.newQuotes) await m.quotes.insertOne({ _id: quoteId, ...doc }, { session });
  for (const { quoteId, holdId } of effects.usedQuotes) {
    const used = await m.quotes.updateOne(
      { _id: quoteId, usedByHoldId: { $exists: false } },
      { $set: { usedByHoldId: holdId } },
      { session },
    );
    if (used.modifiedCount !== 1) throw new Error(`ledger invariant: quote ${quoteId} was drawn twice`);
  }
  for (const { topUpId, ...rest } of effects.endedTopUps) {
    const ended = await m.topUps.replaceOne({ _id: topUpId, state: "pending" }, rest, { session });
    if (ended.modifiedCount !== 1) throw new Error(`ledger invariant: top-up ${topUpId} ended twice`);
  }
  for (const write of effects.executions) {
    if (!(await putExecution(m, write, session))) throw new Error(`execution ${write.record.executionId} changed while it was written`);
  }
  for (const { holdId, ...item } of effects.usage) {
    // A charge is keyed by its hold (one item per hold), a movement by its journal entry (and unique on its reference).
    await m.usage.insertOne({ _id: holdId ?? item.usageId, ...item }, { session });
  }
  for (const { paymentId, ...doc } of effects.payments) await m.payments.insertOne({ _id: paymentId, ...doc }, { session });
  for (const { paymentId, ...doc } of effects.losses) await m.losses.insertOne({ _id: paymentId, ...doc }, { session });
  for (const { holdId, ...doc } of effects.unchargedWork) await m.unchargedWork.insertOne({ _id: holdId, ...doc }, { session });
  for (const r of effects.resources) await m.resources.insertOne({ _id: resourceDocId(r.kind, r.resourceId), ...r }, { session });
}

/**
 * Moves one journal entry's deltas on its wallet and appends it. A move that takes credits away is
 * conditioned on the wallet covering it (`$gte`) and never creates one; a move that only adds creates
 * the wallet when missing.
 */
async function move(m: MongoDb, entry: JournalEntry, session: ClientSession): Promise<void> {
  const guard: Record<string, unknown> = { _id: entry.userId };
  if (entry.amountCredits < 0) guard.balanceCredits = { $gte: -entry.amountCredits };
  if (entry.heldDeltaCredits < 0) guard.heldCredits = { $gte: -entry.heldDeltaCredits };
  const wallet = await m.wallets.findOneAndUpdate(
    guard,
    {
      $inc: { balanceCredits: entry.amountCredits, heldCredits: entry.heldDeltaCredits, journalSeq: 1 },
      $set: { updatedAt: entry.createdAt },
    },
    { session, upsert: entry.amountCredits >= 0 && entry.heldDeltaCredits >= 0, returnDocument: "after" },
  );
  if (!wallet) throw new Error(`ledger invariant: ${entry.kind} ${entry.referenceId} would take ${entry.userId}'s wallet below zero`);
  const { entryId, ...rest } = entry;
  await m.journal.insertOne({ ...rest, _id: entryId, seq: wallet.journalSeq }, { session });
}

/**
 * Writes `record` in place of `previous`, conditioned on the rev `previous` was read with (still the
 * document that was read), or inserts it when there was none; false when `previous` changed since.
 */
export async function putExecution(m: MongoDb, { record, previous }: ExecutionWrite, session?: ClientSession): Promise<boolean> {
  const { _id, ...doc } = toExecutionDoc(record);
  if (!previous) {
    await m.executions.insertOne({ _id, ...doc }, { session });
    return true;
  }
  const written = await m.executions.replaceOne({ _id: previous.executionId, rev: revOf(previous) }, doc, { session });
  return written.matchedCount === 1;
}
