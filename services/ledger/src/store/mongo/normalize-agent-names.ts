// Agent names stored before policies compared them normalized are rewritten once in their normalized
// form (normalizeAgentName), as SQLite's schema 8 does: spend buckets of two spellings of one agent are
// added together (a name of invisible characters only joins the holds without an agent, as
// spendBucketOf files their settlements); of two policies of one agent the one set last stays, and one
// whose name normalizes to nothing is left (it matches no hold). Migration 2 (migrations.ts); also
// marked done in ledger_meta, where ledgers that ran it at start (before migrations) left the mark.
// Each bucket moves in its own transaction, so a hold settling meanwhile never sees it half moved.
import { normalizeAgentName } from "@agentic/platform";
import { policyDocId } from "./docs";
import { COLLECTIONS, type MongoDb } from "./mongo-db";

const DONE = "agent_names_normalized";

export async function normalizeStoredAgentNames(m: MongoDb): Promise<void> {
  const meta = m.db.collection<{ _id: string; at?: Date }>(COLLECTIONS.meta);
  if (await meta.findOne({ _id: DONE })) return;

  const policies = await m.spendPolicies.find({ agentName: { $exists: true } }).toArray();
  for (const doc of policies) {
    const to = normalizeAgentName(doc.agentName!);
    if (to === "" || to === doc.agentName) continue;
    await m.transaction(async (session) => {
      const kept = await m.spendPolicies.findOne({ _id: policyDocId(doc.keyId, to) }, { session });
      await m.spendPolicies.deleteOne({ _id: doc._id }, { session });
      if (kept && kept.updatedAt >= doc.updatedAt) return;
      const { _id, ...rest } = doc;
      await m.spendPolicies.replaceOne({ _id: policyDocId(doc.keyId, to) }, { ...rest, agentName: to }, { session, upsert: true });
    });
  }

  const buckets = await m.spendBuckets.find({ agentName: { $ne: "" } }).toArray();
  for (const doc of buckets) {
    const to = normalizeAgentName(doc.agentName);
    if (to === doc.agentName) continue;
    await m.transaction(async (session) => {
      const current = await m.spendBuckets.findOneAndDelete({ _id: doc._id }, { session });
      if (!current) return;
      const { _id, heldCredits, heldCount, capturedCredits, capturedCount, ...at } = current;
      await m.spendBuckets.updateOne(
        { _id: JSON.stringify([at.keyId, at.day, to, at.capabilityKey]) },
        { $inc: { heldCredits, heldCount, capturedCredits, capturedCount }, $setOnInsert: { ...at, agentName: to } },
        { session, upsert: true },
      );
    });
  }
  await meta.updateOne({ _id: DONE }, { $set: { at: new Date() } }, { upsert: true });
}
