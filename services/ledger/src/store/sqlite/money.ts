// The SQLite store's wallets and holds: grants, credit movements, holds and their settlements. Each
// operation loads its facts and applies the one decision of domain/decide-*.ts in one transaction.
import { newId } from "@agentic/platform";
import { applyEffects } from "./apply-effects";
import { decideGrant, decideMoveCredits } from "../../domain/decide-credits";
import { claimAnswered, decideClaimHold, type ClaimHoldCommand, type ClaimHoldResult } from "../../domain/decide-claim-hold";
import { decideHold, existingHoldFacts, type HoldFacts } from "../../domain/decide-hold";
import { decideSettle, type SettleFacts } from "../../domain/decide-settle";
import type { Decision } from "../../domain/effects";
import type {
  CreditMovementCommand,
  CreditMovementResult,
  GrantCommand,
  GrantResult,
  HoldCommand,
  HoldResult,
  SettleCommand,
  SettleResult,
} from "../../domain/ports";
import { bookedPayments, emptyWallet, utcDay } from "../../domain/rules";
import type { Hold, JournalEntry, Wallet } from "../../domain/types";
import { holdById, liveExecution, movementEntry, quoteById, spendChecks, walletRow } from "./reads";
import {
  toEntry,
  toExecution,
  toHold,
  toPayment,
  toResource,
  toWallet,
  type ExecutionRow,
  type HoldRow,
  type JournalRow,
  type PaymentRow,
  type ResourceRow,
  type WalletRow,
} from "./rows";
import { ms, type SqliteDb } from "./sqlite-db";

export const newEntryId = (): string => newId("journal");

/** Applies `decision`'s effects and answers with its result (inside the caller's transaction). */
export function applied<R>(db: SqliteDb, decision: Decision<R>): R {
  applyEffects(db, decision.effects);
  return decision.result;
}

export class SqliteMoney {
  constructor(private readonly db: SqliteDb) {}

  async getWallet(userId: string): Promise<Wallet> {
    return this.db.read(() => walletRow(this.db, userId) ?? emptyWallet(userId));
  }

  async listWallets(): Promise<Wallet[]> {
    return this.db.read(() => (this.db.sql("SELECT * FROM wallets ORDER BY user_id").all() as unknown as WalletRow[]).map(toWallet));
  }

  async grant(cmd: GrantCommand): Promise<GrantResult> {
    return this.db.transaction(() =>
      applied(
        this.db,
        decideGrant(cmd, { existing: movementEntry(this.db, cmd.grantId, "grant"), wallet: walletRow(this.db, cmd.userId) }, newEntryId),
      ),
    );
  }

  async moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult> {
    return this.db.transaction(() =>
      applied(
        this.db,
        decideMoveCredits(
          cmd,
          { existing: movementEntry(this.db, cmd.reference, "movement"), wallet: walletRow(this.db, cmd.userId) },
          newEntryId,
        ),
      ),
    );
  }

  async hold(cmd: HoldCommand): Promise<HoldResult> {
    // BEGIN IMMEDIATE: one writer, so nothing changes between these reads and the writes (no hold can overtake a limit).
    return this.db.transaction(() => applied(this.db, decideHold(cmd, this.holdFacts(cmd), newEntryId)));
  }

  async claimAndHold(cmd: ClaimHoldCommand): Promise<ClaimHoldResult> {
    return this.db.transaction(() => {
      const row = this.db.sql("SELECT * FROM executions WHERE user_id = ? AND idempotency_key = ?").get(cmd.claim.userId, cmd.claim.key) as
        ExecutionRow | undefined;
      // A retry the stored execution answers reads nothing of the hold.
      const answered = claimAnswered(cmd, row ? toExecution(row) : null);
      if (answered) return applied(this.db, answered);
      // The hold's execution is the one the claim creates: not read, decided.
      const { execution: _created, ...holdWithoutExecution } = cmd.hold;
      const { execution: _none, ...facts } = this.holdFacts(holdWithoutExecution);
      const decision = decideClaimHold(cmd, row ? toExecution(row) : null, facts, newEntryId);
      // The old execution (and its id) goes with the claim that replaces it, as in claimIdempotencyKey.
      if (decision.replaces) this.db.sql("DELETE FROM executions WHERE execution_id = ?").run(decision.replaces.record.executionId);
      return applied(this.db, decision);
    });
  }

  async getHold(holdId: string): Promise<Hold | null> {
    return this.db.read(() => holdById(this.db, holdId));
  }

  async settleHold(cmd: SettleCommand): Promise<SettleResult> {
    return this.db.transaction(() => applied(this.db, decideSettle(cmd, this.settleFacts(cmd), newEntryId)));
  }

  async listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    return this.db.read(() => {
      const rows = this.db
        .sql("SELECT * FROM holds WHERE state = 'held' AND expires_at <= ? ORDER BY expires_at, seq LIMIT ?")
        .all(ms(now), limit);
      return (rows as unknown as HoldRow[]).map(toHold);
    });
  }

  async listJournal(userId: string): Promise<JournalEntry[]> {
    return this.db.read(() =>
      (this.db.sql("SELECT * FROM journal WHERE user_id = ? ORDER BY seq").all(userId) as unknown as JournalRow[]).map(toEntry),
    );
  }

  private holdFacts(cmd: HoldCommand): HoldFacts {
    const existing = holdById(this.db, cmd.holdId);
    if (existing) return existingHoldFacts(existing, walletRow(this.db, existing.userId));
    const quote = cmd.quoteId !== undefined ? quoteById(this.db, cmd.quoteId) : null;
    const who = cmd.spend;
    return {
      existing,
      quote,
      reservation: quote ? holdById(this.db, quote.reservationHoldId) : null,
      execution: cmd.execution ? liveExecution(this.db, cmd.execution.executionId, cmd.now) : null,
      spend: who ? spendChecks(this.db, who, cmd.now) : [],
      wallet: walletRow(this.db, cmd.userId),
      unchargedToday: (
        this.db.sql("SELECT count(*) AS n FROM uncharged_work WHERE user_id = ? AND day = ?").get(cmd.userId, utcDay(cmd.now)) as {
          n: number;
        }
      ).n,
    };
  }

  private settleFacts(cmd: SettleCommand): SettleFacts {
    const hold = holdById(this.db, cmd.holdId);
    const userId = hold?.userId ?? cmd.userId;
    const paymentIds = hold ? bookedPayments(hold, cmd.payments ?? [], cmd.now).map((p) => p.paymentId) : [];
    const payments = paymentIds.flatMap((id) => {
      const row = this.db.sql("SELECT * FROM payments WHERE payment_id = ?").get(id) as PaymentRow | undefined;
      return row ? [toPayment(row)] : [];
    });
    return {
      hold,
      wallet: walletRow(this.db, userId) ?? emptyWallet(userId),
      usageRecorded: hold !== null && this.db.sql("SELECT 1 FROM usage WHERE hold_id = ?").get(hold.holdId) !== undefined,
      payments,
      lossIds: paymentIds.filter((id) => this.db.sql("SELECT 1 FROM platform_losses WHERE payment_id = ?").get(id) !== undefined),
      resourceOwners: (cmd.resources ?? []).flatMap((r) => {
        const row = this.db.sql("SELECT * FROM resources WHERE kind = ? AND resource_id = ?").get(r.kind, r.resourceId) as
          ResourceRow | undefined;
        return row ? [toResource(row)] : [];
      }),
      execution: hold?.executionId ? liveExecution(this.db, hold.executionId, cmd.now) : null,
      unchargedRecorded: hold !== null && this.db.sql("SELECT 1 FROM uncharged_work WHERE hold_id = ?").get(hold.holdId) !== undefined,
    };
  }
}
