// The SQLite store's spend policies (one per key and agent, plus the key's default agent policy) and
// what they have spent (per-day buckets, moved by the holds' effects in money.ts).
import { byPolicyOrder, policyAgentKey, type SpendPolicy, type SpendScope, type SpendUsage } from "../../domain/spend-policy";
import { keyPoliciesOf, spendUsageOf } from "./reads";
import { toSpendPolicy, type SpendPolicyRow } from "./rows";
import { ms, type SqliteDb } from "./sqlite-db";

export class SqliteSpend {
  constructor(private readonly db: SqliteDb) {}

  async setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy> {
    return this.db.transaction(() => {
      // The first createdAt stays: a `none` allowance keeps counting from it across updates.
      this.db
        .sql(
          `INSERT INTO spend_policies (key_id, agent_name, other_agents, budget_credits, reset, capability_caps, max_price_credits, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (key_id, agent_name, other_agents) DO UPDATE SET budget_credits = excluded.budget_credits, reset = excluded.reset,
             capability_caps = excluded.capability_caps, max_price_credits = excluded.max_price_credits, updated_at = excluded.updated_at`,
        )
        .run(
          policy.keyId,
          policyAgentKey(policy.agentName),
          policy.otherAgents ? 1 : 0,
          policy.budgetCredits ?? null,
          policy.reset,
          JSON.stringify(policy.capabilityCaps),
          policy.maxPriceCredits ?? null,
          ms(policy.createdAt),
          ms(policy.updatedAt),
        );
      return keyPoliciesOf(this.db, policy.keyId).find(
        (p) => p.agentName === policy.agentName && Boolean(p.otherAgents) === Boolean(policy.otherAgents),
      )!;
    });
  }

  async clearSpendPolicy(keyId: string, agentName?: string, otherAgents = false): Promise<boolean> {
    return this.db.transaction(
      () =>
        Number(
          this.db
            .sql("DELETE FROM spend_policies WHERE key_id = ? AND agent_name = ? AND other_agents = ?")
            .run(keyId, policyAgentKey(agentName), otherAgents ? 1 : 0).changes,
        ) === 1,
    );
  }

  async listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]> {
    return this.db.read(() => {
      if (keyIds.length === 0) return [];
      const rows = this.db
        .sql(`SELECT * FROM spend_policies WHERE key_id IN (SELECT value FROM json_each(?))`)
        .all(JSON.stringify(keyIds)) as unknown as SpendPolicyRow[];
      return rows.map(toSpendPolicy).sort(byPolicyOrder);
    });
  }

  async spendUsage(scope: SpendScope, since: Date): Promise<SpendUsage> {
    return this.db.read(() => spendUsageOf(this.db, scope, since));
  }
}
