// The MongoDB store's wallets and holds: grants, credit movements, holds and their settlements. Each
// operation loads its facts in a snapshot transaction and applies the one decision of
// domain/decide-*.ts there. Spend policies are read in the hold's transaction; every hold a policy counts
// is its key's user's and writes that user's wallet, so two concurrent holds conflict there, one is run
// again and reads the other's hold: no interleaving can overtake a limit or the balance.
import type { ClientSession, Filter } from "mongodb";
import { newId } from "@agentic/platform";
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
import { bookedPayments, emptyWallet, MOVEMENT_JOURNAL_KINDS, utcDay } from "../../domain/rules";
import type { Hold, JournalEntry, Wallet } from "../../domain/types";
import { applyEffects } from "./apply-effects";
import { resourceDocId, toEntry, toExecution, toHold, toPayment, toResource, toWallet } from "./docs";
import type { ExecutionDoc } from "./docs";
import type { MongoDb } from "./mongo-db";
import { holdIn, liveExecutionIn, quoteIn, spendChecksIn, walletIn } from "./reads";

export const newEntryId = (): string => newId("journal");

/** Applies `decision`'s effects in the session's transaction and answers with its result. */
export async function applied<R>(m: MongoDb, decision: Decision<R>, session: ClientSession): Promise<R> {
  await applyEffects(m, decision.effects, session);
  return decision.result;
}

export class MongoMoney {
  constructor(private readonly m: MongoDb) {}

  async getWallet(userId: string): Promise<Wallet> {
    return (await walletIn(this.m, userId)) ?? emptyWallet(userId);
  }

  async listWallets(): Promise<Wallet[]> {
    return (await this.m.wallets.find({}).sort({ _id: 1 }).toArray()).map(toWallet);
  }

  async grant(cmd: GrantCommand): Promise<GrantResult> {
    return this.m.transaction(async (session) => {
      const existing = await this.m.journal.findOne({ referenceId: cmd.grantId, kind: "grant" }, { session });
      const facts = { existing: existing ? toEntry(existing) : null, wallet: await walletIn(this.m, cmd.userId, session) };
      return applied(this.m, decideGrant(cmd, facts, newEntryId), session);
    });
  }

  async moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult> {
    return this.m.transaction(async (session) => {
      // A grant id is a reference too. The same reference written concurrently under another kind collides on
      // one_item_per_reference: a duplicate key, and the transaction runs again and reads it.
      const existing = await this.m.journal.findOne(
        { referenceId: cmd.reference, kind: { $in: [...MOVEMENT_JOURNAL_KINDS] } },
        { session },
      );
      const facts = { existing: existing ? toEntry(existing) : null, wallet: await walletIn(this.m, cmd.userId, session) };
      return applied(this.m, decideMoveCredits(cmd, facts, newEntryId), session);
    });
  }

  async hold(cmd: HoldCommand): Promise<HoldResult> {
    return this.m.transaction(async (session) => applied(this.m, decideHold(cmd, await this.holdFacts(cmd, session), newEntryId), session));
  }

  async claimAndHold(cmd: ClaimHoldCommand): Promise<ClaimHoldResult> {
    return this.m.transaction(async (session) => {
      const existing = await this.m.executions.findOne({ userId: cmd.claim.userId, idempotencyKey: cmd.claim.key }, { session });
      // A retry the stored execution answers reads nothing of the hold.
      const answered = claimAnswered(cmd, existing ? toExecution(existing) : null);
      if (answered) return applied(this.m, answered, session);
      // The hold's execution is the one the claim creates: not read, decided.
      const { execution: _created, ...holdWithoutExecution } = cmd.hold;
      const { execution: _none, ...facts } = await this.holdFacts(holdWithoutExecution, session);
      const decision = decideClaimHold(cmd, existing ? toExecution(existing) : null, facts, newEntryId);
      if (existing && decision.replaces) {
        // As in claimIdempotencyKey: the old record goes, conditioned on still being what was read; a
        // concurrent first claim of the key collides on one_execution_per_key and the transaction runs again.
        const stale: Filter<ExecutionDoc> =
          decision.replaces.action === "take_over"
            ? { state: "claimed", leaseExpiresAt: { $lte: cmd.claim.now } }
            : { expiresAt: { $lte: cmd.claim.now } };
        const removed = await this.m.executions.deleteOne({ _id: existing._id, rev: existing.rev, ...stale }, { session });
        if (removed.deletedCount !== 1) throw new Error(`execution ${existing._id} changed during a claim of its Idempotency-Key`);
      }
      return applied(this.m, decision, session);
    });
  }

  async getHold(holdId: string): Promise<Hold | null> {
    return holdIn(this.m, holdId);
  }

  async settleHold(cmd: SettleCommand): Promise<SettleResult> {
    return this.m.transaction(async (session) =>
      applied(this.m, decideSettle(cmd, await this.settleFacts(cmd, session), newEntryId), session),
    );
  }

  async listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    const docs = await this.m.holds
      .find({ state: "held", expiresAt: { $lte: now } })
      .sort({ expiresAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toHold);
  }

  async listJournal(userId: string): Promise<JournalEntry[]> {
    return (await this.m.journal.find({ userId }).sort({ seq: 1 }).toArray()).map(toEntry);
  }

  private async holdFacts(cmd: HoldCommand, session: ClientSession): Promise<HoldFacts> {
    const existing = await holdIn(this.m, cmd.holdId, session);
    if (existing) return existingHoldFacts(existing, await walletIn(this.m, existing.userId, session));
    const quote = cmd.quoteId !== undefined ? await quoteIn(this.m, cmd.quoteId, session) : null;
    const spend = cmd.spend ? await spendChecksIn(this.m, cmd.spend, cmd.now, session) : [];
    return {
      existing,
      quote,
      reservation: quote ? await holdIn(this.m, quote.reservationHoldId, session) : null,
      execution: cmd.execution ? await liveExecutionIn(this.m, { _id: cmd.execution.executionId }, cmd.now, session) : null,
      spend,
      wallet: await walletIn(this.m, cmd.userId, session),
      unchargedToday: await this.m.unchargedWork.countDocuments({ userId: cmd.userId, day: utcDay(cmd.now) }, { session }),
    };
  }

  private async settleFacts(cmd: SettleCommand, session: ClientSession): Promise<SettleFacts> {
    const hold = await holdIn(this.m, cmd.holdId, session);
    const userId = hold?.userId ?? cmd.userId;
    const paymentIds = hold ? bookedPayments(hold, cmd.payments ?? [], cmd.now).map((p) => p.paymentId) : [];
    const resourceIds = (cmd.resources ?? []).map((r) => resourceDocId(r.kind, r.resourceId));
    // One after another: operations of one transaction's session never run in parallel.
    const payments = paymentIds.length ? await this.m.payments.find({ _id: { $in: paymentIds } }, { session }).toArray() : [];
    const losses = paymentIds.length
      ? await this.m.losses.find({ _id: { $in: paymentIds } }, { session, projection: { _id: 1 } }).toArray()
      : [];
    const owners = resourceIds.length ? await this.m.resources.find({ _id: { $in: resourceIds } }, { session }).toArray() : [];
    return {
      hold,
      wallet: (await walletIn(this.m, userId, session)) ?? emptyWallet(userId),
      usageRecorded: hold !== null && (await this.m.usage.countDocuments({ _id: hold.holdId }, { session, limit: 1 })) > 0,
      payments: payments.map(toPayment),
      lossIds: losses.map((l) => l._id),
      resourceOwners: owners.map(toResource),
      execution: hold?.executionId ? await liveExecutionIn(this.m, { _id: hold.executionId }, cmd.now, session) : null,
      unchargedRecorded: hold !== null && (await this.m.unchargedWork.countDocuments({ _id: hold.holdId }, { session, limit: 1 })) > 0,
    };
  }
}
