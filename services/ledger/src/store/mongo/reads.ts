// The reads the MongoDB store's operations load their facts with (inside their transaction when a
// session is given).
import type { ClientSession, Filter } from "mongodb";
import type { QuoteRecord } from "../../domain/quote";
import { isPastRetention } from "../../domain/rules";
import {
  byPolicyOrder,
  coveringSpendScopes,
  periodStartDay,
  spendPeriod,
  spendUsageOfBuckets,
  type SpendAttribution,
  type SpendCheck,
  type SpendScope,
  type SpendUsage,
} from "../../domain/spend-policy";
import type { ExecutionRecord, Hold, Wallet } from "../../domain/types";
import { toExecution, toHold, toQuote, toSpendPolicy, toWallet, type SpendBucketDoc } from "./docs";
import type { MongoDb } from "./mongo-db";

export async function walletIn(m: MongoDb, userId: string, session?: ClientSession): Promise<Wallet | null> {
  const doc = await m.wallets.findOne({ _id: userId }, { session });
  return doc ? toWallet(doc) : null;
}

export async function holdIn(m: MongoDb, holdId: string, session?: ClientSession): Promise<Hold | null> {
  const doc = await m.holds.findOne({ _id: holdId }, { session });
  return doc ? toHold(doc) : null;
}

export async function quoteIn(m: MongoDb, quoteId: string, session?: ClientSession): Promise<QuoteRecord | null> {
  const doc = await m.quotes.findOne({ _id: quoteId }, { session });
  return doc ? toQuote(doc) : null;
}

/** An execution, unless absent or past its retention (the TTL monitor may not have removed it yet). */
export async function liveExecutionIn(
  m: MongoDb,
  filter: Filter<import("./docs").ExecutionDoc>,
  now: Date,
  session?: ClientSession,
): Promise<ExecutionRecord | null> {
  const doc = await m.executions.findOne(filter, { session });
  return doc && !isPastRetention(doc, now) ? toExecution(doc) : null;
}

/** The state of each of these holds; a hold that is not stored counts as released (it holds nothing). */
export async function holdStatesIn(m: MongoDb, holdIds: string[], session?: ClientSession): Promise<(holdId: string) => Hold["state"]> {
  const docs = holdIds.length === 0 ? [] : await m.holds.find({ _id: { $in: holdIds } }, { session, projection: { state: 1 } }).toArray();
  const states = new Map(docs.map((doc) => [doc._id, doc.state]));
  return (holdId) => states.get(holdId) ?? "released";
}

/** What the holds in `scope` spent since `since`'s day, from its buckets (bucketInScope). */
export async function spendUsageIn(m: MongoDb, scope: SpendScope, since: Date, session?: ClientSession): Promise<SpendUsage> {
  const filter: Filter<SpendBucketDoc> = {
    keyId: scope.keyId,
    day: { $gte: periodStartDay(since) },
    ...(scope.agentName !== undefined
      ? { agentName: scope.agentName }
      : scope.exceptAgentNames?.length
        ? { agentName: { $nin: [...scope.exceptAgentNames] } }
        : {}),
  };
  return spendUsageOfBuckets(await m.spendBuckets.find(filter, { session }).toArray());
}

/** The policies covering `who` (key-wide, default agent, the agent's), each with what its scope has spent in its current period. */
export async function spendChecksIn(m: MongoDb, who: SpendAttribution, now: Date, session?: ClientSession): Promise<SpendCheck[]> {
  // Every policy of the key: which cover the hold, and what the default agent policy counts, depend on all of them.
  const docs = await m.spendPolicies.find({ keyId: who.keyId }, { session }).toArray();
  const checks: SpendCheck[] = [];
  for (const { policy, scope } of coveringSpendScopes(docs.map(toSpendPolicy).sort(byPolicyOrder), who))
    checks.push({ policy, scope, usage: await spendUsageIn(m, scope, spendPeriod(policy, now).start, session) });
  return checks;
}

/** The key's open quotes now: not drawn by a hold, not expired. */
export async function openQuotesIn(m: MongoDb, keyId: string, now: Date, session?: ClientSession): Promise<number> {
  return m.quotes.countDocuments({ keyId, usedByHoldId: { $exists: false }, expiresAt: { $gt: now } }, { session });
}
