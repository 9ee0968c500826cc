// The SQLite store's executions and their Idempotency-Keys: claims, completions, and the sweeper's
// abandoned and indeterminate ones (the holds of their attempts are placed in money.ts).
import { decideCompletion } from "../../domain/decide-completion";
import type { AbandonCommand, ClaimCommand, CompleteCommand, CompleteExecutionCommand, CompleteOutcome } from "../../domain/ports";
import { abandonedExecution, decideClaim, isAbandoned, newClaimedExecution } from "../../domain/rules";
import type { ClaimOutcome, ExecutionRecord, StoredResult } from "../../domain/types";
import { putExecution } from "./apply-effects";
import { executionById, holdStates, liveExecution } from "./reads";
import { toExecution, type ExecutionRow } from "./rows";
import { ms, type SqliteDb } from "./sqlite-db";

/** Executions past their retention are deleted at most this often (they already count as absent). */
const PURGE_INTERVAL_MS = 60_000;

export class SqliteExecutions {
  private lastPurge = 0;

  constructor(private readonly db: SqliteDb) {}

  async claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    return this.db.transaction((): ClaimOutcome => {
      this.purgePastRetention(cmd.now);
      const row = this.db.sql("SELECT * FROM executions WHERE user_id = ? AND idempotency_key = ?").get(cmd.userId, cmd.key) as
        ExecutionRow | undefined;
      const existing = row ? toExecution(row) : null;
      const decision = decideClaim(existing, cmd);
      if (decision.action === "answer") return decision.outcome;
      // create, or take over a claim that never held anything: the old execution id is dropped with it.
      if (existing) this.db.sql("DELETE FROM executions WHERE execution_id = ?").run(existing.executionId);
      const record = newClaimedExecution(cmd);
      putExecution(this.db, record);
      return { state: "claimed", executionId: record.executionId };
    });
  }

  async completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    return this.db.transaction((): CompleteOutcome => {
      const row = this.db.sql("SELECT execution_id FROM executions WHERE user_id = ? AND idempotency_key = ?").get(cmd.userId, cmd.key) as
        { execution_id: string } | undefined;
      if (!row) return "not_found";
      return this.complete(row.execution_id, cmd.userId, cmd.result, cmd.now);
    });
  }

  async completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome> {
    return this.db.transaction(() => this.complete(cmd.executionId, cmd.userId, cmd.result, cmd.now));
  }

  async getExecution(executionId: string): Promise<ExecutionRecord | null> {
    return this.db.read(() => executionById(this.db, executionId));
  }

  async listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]> {
    // One read snapshot for the executions and their holds (another process may be writing).
    return this.db.transaction(() => {
      // SQL narrows to running executions past lease + grace; isAbandoned, with their holds, decides.
      const rows = this.db
        .sql("SELECT * FROM executions WHERE state = 'running' AND lease_expires_at <= ? ORDER BY lease_expires_at, seq")
        .all(ms(now) - graceMs);
      return (rows as unknown as ExecutionRow[])
        .map(toExecution)
        .filter((record) => isAbandoned(record, holdStates(this.db, record), now, graceMs))
        .slice(0, limit);
    });
  }

  async abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null> {
    return this.db.transaction(() => {
      const record = executionById(this.db, cmd.executionId);
      if (!record || !isAbandoned(record, holdStates(this.db, record), cmd.now, cmd.graceMs)) return null;
      const abandoned = abandonedExecution(record, cmd.now);
      putExecution(this.db, abandoned);
      return executionById(this.db, abandoned.executionId);
    });
  }

  async countIndeterminateExecutions(now: Date): Promise<number> {
    return this.db.read(() => {
      const row = this.db.sql("SELECT count(*) AS n FROM executions WHERE state = 'running' AND lease_expires_at <= ?").get(ms(now)) as {
        n: number;
      };
      return row.n;
    });
  }

  /** Ends the execution with `result` when it is the user's and still open (the first completion wins). */
  private complete(executionId: string, userId: string, result: StoredResult, now: Date): CompleteOutcome {
    const decision = decideCompletion(liveExecution(this.db, executionId, now), { userId, result, now });
    if (decision.outcome === "completed") putExecution(this.db, decision.record);
    return decision.outcome;
  }

  /** Deletes executions past their retention (their keys go with them), at most once a minute. */
  private purgePastRetention(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    this.db.sql("DELETE FROM executions WHERE expires_at <= ?").run(ms(now));
  }
}
