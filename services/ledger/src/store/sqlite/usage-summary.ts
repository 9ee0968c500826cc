// The SQLite store's usage summary: a user's charges in a range summed per UTC day, capability, route and
// agent by one grouped statement over the usage table (its usage_by_user_kind index bounds the scan).
import type { SQLInputValue } from "node:sqlite";
import type { UsageTotal, UsageTotalsQuery } from "../../domain/types";
import { ms, type SqliteDb } from "./sqlite-db";

export class SqliteUsageSummary {
  constructor(private readonly db: SqliteDb) {}

  async sumUsage(userId: string, query: UsageTotalsQuery): Promise<UsageTotal[]> {
    return this.db.read(() => {
      const where = ["user_id = ?", "kind = 'charge'", "created_at >= ?", "created_at < ?"];
      const params: SQLInputValue[] = [userId, ms(query.from), ms(query.to)];
      if (query.agentName !== undefined) {
        where.push("agent_name = ?");
        params.push(query.agentName);
      }
      if (query.capabilityKey !== undefined) {
        where.push("capability_key = ?");
        params.push(query.capabilityKey);
      }
      const rows = this.db
        .sql(
          `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, capability_key, route_key, agent_name,
                  sum(credits_charged) AS credits, count(*) AS n
           FROM usage WHERE ${where.join(" AND ")} GROUP BY day, capability_key, route_key, agent_name`,
        )
        .all(...params) as unknown as Array<{
        day: string;
        capability_key: string;
        route_key: string;
        agent_name: string | null;
        credits: number;
        n: number;
      }>;
      return rows.map((r) => ({
        day: r.day,
        capabilityKey: r.capability_key,
        routeKey: r.route_key,
        ...(r.agent_name !== null ? { agentName: r.agent_name } : {}),
        credits: Number(r.credits),
        count: Number(r.n),
      }));
    });
  }
}
