// The MongoDB store's spend policies (one document per key and agent, plus the key's default agent
// policy) and what they have spent (per-day buckets, moved by the holds' effects in money.ts).
import { byPolicyOrder, type SpendPolicy, type SpendScope, type SpendUsage } from "../../domain/spend-policy";
import { policyDocId, toSpendPolicy } from "./docs";
import type { MongoDb } from "./mongo-db";
import { spendUsageIn } from "./reads";

export class MongoSpend {
  constructor(private readonly m: MongoDb) {}

  async setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy> {
    const { createdAt, ...rest } = policy;
    // The first createdAt stays: a `none` allowance keeps counting from it across updates.
    const unset: Record<string, ""> = Object.fromEntries(
      (["agentName", "otherAgents", "budgetCredits", "maxPriceCredits"] as const)
        .filter((f) => rest[f] === undefined)
        .map((f) => [f, ""] as const),
    );
    const doc = await this.m.spendPolicies.findOneAndUpdate(
      { _id: policyDocId(policy.keyId, policy.agentName, policy.otherAgents) },
      { $set: rest, $setOnInsert: { createdAt }, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) },
      { upsert: true, returnDocument: "after" },
    );
    if (!doc) throw new Error(`spend policy of ${policy.keyId} missing after upsert`);
    return toSpendPolicy(doc);
  }

  async clearSpendPolicy(keyId: string, agentName?: string, otherAgents = false): Promise<boolean> {
    return (await this.m.spendPolicies.deleteOne({ _id: policyDocId(keyId, agentName, otherAgents) })).deletedCount === 1;
  }

  async listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]> {
    const docs = await this.m.spendPolicies.find({ keyId: { $in: [...keyIds] } }).toArray();
    return docs.map(toSpendPolicy).sort(byPolicyOrder);
  }

  async spendUsage(scope: SpendScope, since: Date): Promise<SpendUsage> {
    return spendUsageIn(this.m, scope, since);
  }
}
