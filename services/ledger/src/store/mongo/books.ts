// The MongoDB store's books: usage items (paged by a keyset cursor), resources users own, payments and
// platform losses, and the reconciliation's sums. All reads; settlements write them (money.ts).
import type { Filter } from "mongodb";
import { MOVEMENT_JOURNAL_KINDS, unchargedLoss } from "../../domain/rules";
import { mergeByTime } from "../merge-by-time";
import type {
  ChargeTotal,
  CreditMovementTotal,
  OutgoingPayment,
  OwnedResource,
  PaymentTotal,
  PlatformLoss,
  TimeRange,
  UsageItem,
  UsageQuery,
} from "../../domain/types";
import { resourceDocId, toPayment, toResource, toUnchargedWork, toUsage, type UsageDoc } from "./docs";
import type { MongoDb } from "./mongo-db";

export class MongoBooks {
  constructor(private readonly m: MongoDb) {}

  async getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null> {
    const doc = await this.m.resources.findOne({ _id: resourceDocId(kind, resourceId) });
    return doc ? toResource(doc) : null;
  }

  async listPayments(range: TimeRange): Promise<OutgoingPayment[]> {
    const docs = await this.m.payments
      .find({ bookedAt: { $gte: range.from, $lt: range.to } })
      .sort({ bookedAt: 1, _id: 1 })
      .toArray();
    return docs.map(toPayment);
  }

  async listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]> {
    const docs = await this.m.losses
      .find({ createdAt: { $gte: range.from, $lt: range.to } })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    const uncharged = await this.m.unchargedWork
      .find({ createdAt: { $gte: range.from, $lt: range.to } })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    return mergeByTime(
      docs.map(({ _id, ...loss }) => ({ paymentId: _id, ...loss })),
      uncharged.map((doc) => unchargedLoss(toUnchargedWork(doc))),
    );
  }

  async sumCharges(range: TimeRange): Promise<ChargeTotal[]> {
    const rows = await this.m.holds
      .aggregate<{ _id: { day: string; routeKey: string }; charged: number; n: number }>([
        { $match: { state: "captured", settledAt: { $gte: range.from, $lt: range.to } } },
        {
          $group: {
            _id: { day: { $dateToString: { format: "%Y-%m-%d", date: "$settledAt", timezone: "UTC" } }, routeKey: "$routeKey" },
            charged: { $sum: "$capturedCredits" },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray();
    return rows.map((r) => ({ day: r._id.day, routeKey: r._id.routeKey, chargedCredits: Number(r.charged), captures: Number(r.n) }));
  }

  async sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]> {
    const rows = await this.m.journal
      .aggregate<{ _id: { day: string; kind: CreditMovementTotal["kind"] }; n: number; added: number; removed: number }>([
        { $match: { kind: { $in: [...MOVEMENT_JOURNAL_KINDS] }, createdAt: { $gte: range.from, $lt: range.to } } },
        {
          $group: {
            _id: { day: { $dateToString: { format: "%Y-%m-%d", date: "$createdAt", timezone: "UTC" } }, kind: "$kind" },
            n: { $sum: 1 },
            added: { $sum: { $cond: [{ $gt: ["$amountCredits", 0] }, "$amountCredits", 0] } },
            removed: { $sum: { $cond: [{ $lt: ["$amountCredits", 0] }, { $subtract: [0, "$amountCredits"] }, 0] } },
          },
        },
      ])
      .toArray();
    return rows.map((r) => ({
      day: r._id.day,
      kind: r._id.kind,
      movements: Number(r.n),
      addedCredits: Number(r.added),
      removedCredits: Number(r.removed),
    }));
  }

  async sumPayments(range: TimeRange): Promise<PaymentTotal[]> {
    const rows = await this.m.payments
      .aggregate<{ _id: { day: string; routeKey: string; settlement: PaymentTotal["settlement"] }; amount: number; n: number }>([
        { $match: { bookedAt: { $gte: range.from, $lt: range.to } } },
        {
          $group: {
            _id: {
              day: { $dateToString: { format: "%Y-%m-%d", date: "$bookedAt", timezone: "UTC" } },
              routeKey: "$routeKey",
              settlement: "$settlement",
            },
            amount: { $sum: "$amountMicroUsd" },
            n: { $sum: 1 },
          },
        },
      ])
      .toArray();
    return rows.map((r) => ({
      day: r._id.day,
      routeKey: r._id.routeKey,
      settlement: r._id.settlement,
      amountMicroUsd: Number(r.amount),
      payments: Number(r.n),
    }));
  }

  async listUsage(userId: string, limit: number, query: UsageQuery = {}): Promise<UsageItem[]> {
    const filter: Filter<UsageDoc> = { userId };
    // Items written before kinds existed have none: they are charges.
    if (query.kind !== undefined)
      filter.kind = query.kind === "charge" ? { $in: ["charge", null as unknown as UsageItem["kind"]] } : query.kind;
    if (query.capabilityKey !== undefined) filter.capabilityKey = query.capabilityKey;
    if (query.agentName !== undefined) filter.agentName = query.agentName;
    if (query.from || query.to) filter.createdAt = { ...(query.from ? { $gte: query.from } : {}), ...(query.to ? { $lt: query.to } : {}) };
    if (query.after)
      filter.$or = [{ createdAt: { $lt: query.after.createdAt } }, { createdAt: query.after.createdAt, _id: { $lt: query.after.key } }];
    const docs = await this.m.usage.find(filter).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
    return docs.map(toUsage);
  }
}
