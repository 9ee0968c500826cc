// The SQLite store's books: usage items (paged by a keyset cursor), resources users own, payments and
// platform losses, and the reconciliation's sums. All reads; settlements write them (money.ts).
import type { SQLInputValue } from "node:sqlite";
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
import { unchargedLoss } from "../../domain/rules";
import { mergeByTime } from "../merge-by-time";
import {
  toLoss,
  toPayment,
  toResource,
  toUnchargedWork,
  toUsage,
  type LossRow,
  type PaymentRow,
  type ResourceRow,
  type UnchargedWorkRow,
  type UsageRow,
} from "./rows";
import { ms, type SqliteDb } from "./sqlite-db";

export class SqliteBooks {
  constructor(private readonly db: SqliteDb) {}

  async listUsage(userId: string, limit: number, query: UsageQuery = {}): Promise<UsageItem[]> {
    return this.db.read(() => {
      const { sql, params } = usageQuerySql(userId, limit, query);
      return (this.db.sql(sql).all(...params) as unknown as UsageRow[]).map(toUsage);
    });
  }

  async getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null> {
    return this.db.read(() => {
      const row = this.db.sql("SELECT * FROM resources WHERE kind = ? AND resource_id = ?").get(kind, resourceId) as
        ResourceRow | undefined;
      return row ? toResource(row) : null;
    });
  }

  async listPayments(range: TimeRange): Promise<OutgoingPayment[]> {
    return this.db.read(() => {
      const rows = this.db
        .sql("SELECT * FROM payments WHERE booked_at >= ? AND booked_at < ? ORDER BY booked_at, seq")
        .all(ms(range.from), ms(range.to));
      return (rows as unknown as PaymentRow[]).map(toPayment);
    });
  }

  async listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]> {
    return this.db.read(() => {
      const rows = this.db
        .sql(
          `SELECT l.reason, l.amount_micro_usd AS loss_micro_usd, l.error_code, l.created_at AS loss_created_at, p.*
           FROM platform_losses l JOIN payments p ON p.payment_id = l.payment_id
           WHERE l.created_at >= ? AND l.created_at < ? ORDER BY l.created_at, l.seq`,
        )
        .all(ms(range.from), ms(range.to));
      const uncharged = this.db
        .sql("SELECT * FROM uncharged_work WHERE created_at >= ? AND created_at < ? ORDER BY created_at, seq")
        .all(ms(range.from), ms(range.to)) as unknown as UnchargedWorkRow[];
      return mergeByTime(
        (rows as unknown as LossRow[]).map(toLoss),
        uncharged.map((r) => unchargedLoss(toUnchargedWork(r))),
      );
    });
  }

  async sumCharges(range: TimeRange): Promise<ChargeTotal[]> {
    return this.db.read(() => {
      const rows = this.db
        .sql(
          `SELECT strftime('%Y-%m-%d', settled_at / 1000, 'unixepoch') AS day, route_key, sum(captured_credits) AS charged, count(*) AS n
           FROM holds WHERE state = 'captured' AND settled_at >= ? AND settled_at < ? GROUP BY day, route_key`,
        )
        .all(ms(range.from), ms(range.to)) as unknown as Array<{ day: string; route_key: string; charged: number; n: number }>;
      return rows.map((r) => ({ day: r.day, routeKey: r.route_key, chargedCredits: r.charged, captures: r.n }));
    });
  }

  async sumPayments(range: TimeRange): Promise<PaymentTotal[]> {
    return this.db.read(() => {
      const rows = this.db
        .sql(
          `SELECT strftime('%Y-%m-%d', booked_at / 1000, 'unixepoch') AS day, route_key, settlement, sum(amount_micro_usd) AS amount, count(*) AS n
           FROM payments WHERE booked_at >= ? AND booked_at < ? GROUP BY day, route_key, settlement`,
        )
        .all(ms(range.from), ms(range.to)) as unknown as Array<{
        day: string;
        route_key: string;
        settlement: PaymentTotal["settlement"];
        amount: number;
        n: number;
      }>;
      return rows.map((r) => ({ day: r.day, routeKey: r.route_key, settlement: r.settlement, amountMicroUsd: r.amount, payments: r.n }));
    });
  }

  async sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]> {
    return this.db.read(() => {
      const rows = this.db
        .sql(
          `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, kind, count(*) AS n,
                  sum(CASE WHEN amount_credits > 0 THEN amount_credits ELSE 0 END) AS added,
                  sum(CASE WHEN amount_credits < 0 THEN -amount_credits ELSE 0 END) AS removed
           FROM journal WHERE kind IN ('grant', 'refund', 'adjustment') AND created_at >= ? AND created_at < ? GROUP BY day, kind`,
        )
        .all(ms(range.from), ms(range.to)) as unknown as Array<{
        day: string;
        kind: CreditMovementTotal["kind"];
        n: number;
        added: number;
        removed: number;
      }>;
      return rows.map((r) => ({ day: r.day, kind: r.kind, movements: r.n, addedCredits: r.added, removedCredits: r.removed }));
    });
  }
}

/**
 * listUsage's statement: the user's items `query` selects, newest first by (created_at, item_key), each
 * filter an equality or a range the indexes of schema 5 cover (exported so a test can read its plan).
 */
export function usageQuerySql(userId: string, limit: number, query: UsageQuery): { sql: string; params: SQLInputValue[] } {
  const where = ["user_id = ?"];
  const params: SQLInputValue[] = [userId];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`${column} = ?`);
    params.push(value);
  };
  equal("kind", query.kind);
  equal("capability_key", query.capabilityKey);
  equal("agent_name", query.agentName);
  if (query.from) {
    where.push("created_at >= ?");
    params.push(ms(query.from));
  }
  if (query.to) {
    where.push("created_at < ?");
    params.push(ms(query.to));
  }
  if (query.after) {
    where.push("(created_at, item_key) < (?, ?)");
    params.push(ms(query.after.createdAt), query.after.key);
  }
  params.push(limit);
  return { sql: `SELECT * FROM usage WHERE ${where.join(" AND ")} ORDER BY created_at DESC, item_key DESC LIMIT ?`, params };
}
