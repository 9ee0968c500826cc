// Ending an execution with its result outside a settlement (CompleteIdempotencyKey, CompleteExecution),
// decided once for every store: only the user's live execution, and the first completion wins.
import type { CompleteOutcome } from "./ports";
import { completedExecution } from "./rules";
import type { ExecutionRecord, StoredResult } from "./types";

/**
 * What completing `live` (the execution, unless absent or past its retention) with `result` does:
 * not_found when it is missing or another user's; already_completed when it had ended; otherwise
 * `completed` with the record to write in its place.
 */
export function decideCompletion(
  live: ExecutionRecord | null,
  cmd: { userId: string; result: StoredResult; now: Date },
): { outcome: Exclude<CompleteOutcome, "completed"> } | { outcome: "completed"; record: ExecutionRecord } {
  if (!live || live.userId !== cmd.userId) return { outcome: "not_found" };
  const record = completedExecution(live, cmd.result, cmd.now);
  return record ? { outcome: "completed", record } : { outcome: "already_completed" };
}
