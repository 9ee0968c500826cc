// The deadline of one call made on behalf of a caller: the call's own limit, cut to what the caller
// has left, and at least 1 ms: a spent budget still yields a positive deadline that fails fast.
import type { CallBudget, ExecutorSettings } from "./execution";

/** `limitMs` capped by `remainingMs` (Infinity without a caller deadline), at least 1 ms. */
export function callDeadlineMs(limitMs: number, remainingMs: number): number {
  return Math.max(1, Math.min(limitMs, remainingMs));
}

/** Options of one catalog, router or ledger call: its deadline within the caller's budget. */
export function dependencyOpts(settings: Pick<ExecutorSettings, "dependencyDeadlineMs">, budget: CallBudget): { deadlineMs: number } {
  return { deadlineMs: callDeadlineMs(settings.dependencyDeadlineMs, budget.remainingMs()) };
}
