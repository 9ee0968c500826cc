// The MongoDB store's usage summary: a user's charges in a range summed per UTC day, capability, route and
// agent by one aggregation over the usage collection (its by_user_kind_newest_first index bounds the scan).
import type { Filter } from "mongodb";
import type { UsageItem, UsageTotal, UsageTotalsQuery } from "../../domain/types";
import type { UsageDoc } from "./docs";
import type { MongoDb } from "./mongo-db";

export class MongoUsageSummary {
  constructor(private readonly m: MongoDb) {}

  async sumUsage(userId: string, query: UsageTotalsQuery): Promise<UsageTotal[]> {
    const match: Filter<UsageDoc> = {
      userId,
      // Items written before kinds existed have none: they are charges.
      kind: { $in: ["charge", null as unknown as UsageItem["kind"]] },
      createdAt: { $gte: query.from, $lt: query.to },
    };
    if (query.agentName !== undefined) match.agentName = query.agentName;
    if (query.capabilityKey !== undefined) match.capabilityKey = query.capabilityKey;
    const rows = await this.m.usage
      .aggregate<{
        _id: { day: string; capabilityKey: string; routeKey: string; agentName: string | null };
        credits: number;
        n: number;
      }>([
        { $match: match },
        {
          $group: {
            _id: {
              day: { $dateToString: { format: "%Y-%m-%d", date: "$createdAt", timezone: "UTC" } },
              capabilityKey: "$capabilityKey",
              routeKey: "$routeKey",
              agentName: { $ifNull: ["$agentName", null] },
            },
            credits: { $sum: "$creditsCharged" },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray();
    return rows.map((r) => ({
      day: r._id.day,
      capabilityKey: r._id.capabilityKey,
      routeKey: r._id.routeKey,
      ...(r._id.agentName !== null ? { agentName: r._id.agentName } : {}),
      credits: Number(r.credits),
      count: Number(r.n),
    }));
  }
}
