// The SQLite store's top-ups: one per x402 payment, pending until it is credited (through a grant
// entry, decided in domain/decide-top-up.ts) or failed.
import { decideFinishTopUp } from "../../domain/decide-top-up";
import {
  decideTopUpStart,
  type FinishTopUpCommand,
  type StartTopUpCommand,
  type TopUpFinish,
  type TopUpRecord,
  type TopUpStart,
} from "../../domain/top-up";
import { applied, newEntryId } from "./money";
import { walletRow } from "./reads";
import { toTopUp, type TopUpRow } from "./rows";
import { ms, type SqliteDb } from "./sqlite-db";

export class SqliteTopUps {
  constructor(private readonly db: SqliteDb) {}

  async getTopUp(topUpId: string): Promise<TopUpRecord | null> {
    return this.db.read(() => this.topUpById(topUpId));
  }

  async startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart> {
    return this.db.transaction((): TopUpStart => {
      const existing = this.topUpById(cmd.record.topUpId);
      const decision = decideTopUpStart(existing, cmd);
      if (decision.action === "exists") return { status: "exists", record: existing! };
      if (decision.action === "retry") {
        this.db
          .sql("UPDATE top_ups SET attempted_at = ?, attempts = ? WHERE top_up_id = ? AND state = 'pending'")
          .run(ms(decision.record.attemptedAt), decision.record.attempts, decision.record.topUpId);
        return { status: "retry", record: decision.record };
      }
      const r = cmd.record;
      this.db
        .sql(
          `INSERT INTO top_ups (top_up_id, user_id, network, asset, payer, nonce, pay_to, amount_atomic, amount_credits, state, created_at, attempted_at, attempts, requirements, payload)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`,
        )
        .run(
          r.topUpId,
          r.userId,
          r.network,
          r.asset,
          r.payer,
          r.nonce,
          r.payTo,
          r.amountAtomic,
          r.amountCredits,
          ms(r.createdAt),
          ms(r.attemptedAt),
          r.attempts,
          r.requirements,
          r.payload,
        );
      return { status: "started", record: this.topUpById(r.topUpId)! };
    });
  }

  async finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish> {
    return this.db.transaction(() => {
      const topUp = this.topUpById(cmd.topUpId);
      return applied(this.db, decideFinishTopUp(cmd, { topUp, wallet: topUp ? walletRow(this.db, topUp.userId) : null }, newEntryId));
    });
  }

  async listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]> {
    return this.db.read(() => {
      const rows = this.db
        .sql("SELECT * FROM top_ups WHERE state = 'pending' AND attempted_at <= ? ORDER BY attempted_at, seq LIMIT ?")
        .all(ms(staleBefore), limit);
      return (rows as unknown as TopUpRow[]).map(toTopUp);
    });
  }

  private topUpById(topUpId: string): TopUpRecord | null {
    const row = this.db.sql("SELECT * FROM top_ups WHERE top_up_id = ?").get(topUpId) as TopUpRow | undefined;
    return row ? toTopUp(row) : null;
  }
}
