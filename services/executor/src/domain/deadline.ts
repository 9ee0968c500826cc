// The deadline of each catalog, router or ledger call the executor makes for an execute: the
// dependency deadline, cut to what the caller has left (callDeadlineMs, the rule every service uses).
import { callDeadlineMs } from "@agentic/platform/core";
import type { CallBudget, ExecutorSettings } from "./execution";

/** Options of one catalog, router or ledger call: its deadline within the caller's budget. */
export function dependencyOpts(settings: Pick<ExecutorSettings, "dependencyDeadlineMs">, budget: CallBudget): { deadlineMs: number } {
  return { deadlineMs: callDeadlineMs(settings.dependencyDeadlineMs, budget.remainingMs()) };
}
