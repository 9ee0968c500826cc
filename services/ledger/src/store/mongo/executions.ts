// The MongoDB store's executions and their Idempotency-Keys. Executions move in the same
// transactions as the holds of their attempts (money.ts); here: claims (one execution per key, by a
// unique index), completions outside a settlement (compare-and-set on the execution's rev), and the
// sweeper's abandoned and indeterminate ones.
import type { Filter } from "mongodb";
import { decideCompletion } from "../../domain/decide-completion";
import type { AbandonCommand, ClaimCommand, CompleteCommand, CompleteExecutionCommand, CompleteOutcome } from "../../domain/ports";
import { abandonedExecution, decideClaim, isAbandoned, newClaimedExecution } from "../../domain/rules";
import type { ClaimOutcome, ExecutionRecord, StoredResult } from "../../domain/types";
import { putExecution } from "./apply-effects";
import { toExecution, toExecutionDoc, type ExecutionDoc } from "./docs";
import type { MongoDb } from "./mongo-db";
import { holdStatesIn, liveExecutionIn } from "./reads";

/** How many running executions listAbandonedExecutions checks per read of their holds. */
const ABANDONED_PAGE = 100;

/** Compare-and-set passes before an operation on one execution gives up (each lost pass means another write won). */
const CAS_ATTEMPTS = 10;

export class MongoExecutions {
  constructor(private readonly m: MongoDb) {}

  async claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    return this.m.transaction(async (session): Promise<ClaimOutcome> => {
      const existing = await this.m.executions.findOne({ userId: cmd.userId, idempotencyKey: cmd.key }, { session });
      const decision = decideClaim(existing ? toExecution(existing) : null, cmd);
      if (decision.action === "answer") return decision.outcome;
      if (existing) {
        // take_over: a claim whose lease ran out with nothing held. create: a record past its
        // retention that the TTL monitor has not removed yet. Either way the old record (and its
        // execution id) goes, conditioned on still being what was read, before the new one is inserted.
        const stale: Filter<ExecutionDoc> =
          decision.action === "take_over" ? { state: "claimed", leaseExpiresAt: { $lte: cmd.now } } : { expiresAt: { $lte: cmd.now } };
        const removed = await this.m.executions.deleteOne({ _id: existing._id, rev: existing.rev, ...stale }, { session });
        if (removed.deletedCount !== 1) throw new Error(`execution ${existing._id} changed during a claim of its Idempotency-Key`);
      }
      // A concurrent first claim of the same key collides on one_execution_per_key: a write conflict
      // the driver retries, or a duplicate key the transaction helper retries; either way the next
      // run reads the winner's execution and answers with it.
      const record = newClaimedExecution(cmd);
      await this.m.executions.insertOne(toExecutionDoc(record), { session });
      return { state: "claimed", executionId: record.executionId };
    });
  }

  async completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    return this.complete({ userId: cmd.userId, idempotencyKey: cmd.key }, cmd.userId, cmd.result, cmd.now);
  }

  async completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome> {
    return this.complete({ _id: cmd.executionId }, cmd.userId, cmd.result, cmd.now);
  }

  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    const doc = await this.m.executions.findOne({ _id: executionId });
    return doc ? toExecution(doc) : null;
  }

  async listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]> {
    const found: ExecutionRecord[] = [];
    if (limit <= 0) return found;
    // Running past lease and grace (by_state_and_lease), oldest lease first; those with a hold still
    // held are skipped, so the candidates are read a page at a time with one read of their holds.
    const cursor = this.m.executions
      .find({ state: "running", leaseExpiresAt: { $lte: new Date(now.getTime() - graceMs) } })
      .sort({ leaseExpiresAt: 1 })
      .batchSize(ABANDONED_PAGE);
    let page: ExecutionDoc[] = [];
    const check = async () => {
      const states = await holdStatesIn(
        this.m,
        page.flatMap((doc) => doc.holdIds),
      );
      for (const doc of page) {
        const record = toExecution(doc);
        if (found.length < limit && isAbandoned(record, record.holdIds.map(states), now, graceMs)) found.push(record);
      }
      page = [];
    };
    for await (const doc of cursor) {
      page.push(doc);
      if (page.length < ABANDONED_PAGE) continue;
      await check();
      if (found.length === limit) break; // leaving the loop closes the cursor
    }
    if (page.length > 0) await check();
    return found;
  }

  async abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null> {
    // One transaction: its holds are read in the same snapshot, and a hold placed for it meanwhile
    // writes the execution too, so one of the two transactions conflicts and runs again.
    return this.m.transaction(async (session): Promise<ExecutionRecord | null> => {
      const doc = await this.m.executions.findOne({ _id: cmd.executionId }, { session });
      if (!doc) return null;
      const record = toExecution(doc);
      const states = await holdStatesIn(this.m, record.holdIds, session);
      if (!isAbandoned(record, record.holdIds.map(states), cmd.now, cmd.graceMs)) return null;
      const abandoned = abandonedExecution(record, cmd.now);
      if (!(await putExecution(this.m, { record: abandoned, previous: record }, session)))
        throw new Error(`execution ${record.executionId} changed while it was abandoned`);
      return abandoned;
    });
  }

  async countIndeterminateExecutions(now: Date): Promise<number> {
    return this.m.executions.countDocuments({ state: "running", leaseExpiresAt: { $lte: now } });
  }

  /** Ends the execution `filter` finds with `result`: compare-and-set on its rev, so the first completion wins. */
  private async complete(filter: Filter<ExecutionDoc>, userId: string, result: StoredResult, now: Date): Promise<CompleteOutcome> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const live = await liveExecutionIn(this.m, filter, now);
      const decision = decideCompletion(live, { userId, result, now });
      if (decision.outcome !== "completed") return decision.outcome;
      if (await putExecution(this.m, { record: decision.record, previous: live })) return "completed";
      // Written by someone else since it was read (a hold joined it, or it was completed): read again.
    }
    throw new Error("execution completion lost too many races");
  }
}
