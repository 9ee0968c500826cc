// Runs the labelled set through an intent index and measures it: Hit@1, Hit@3 and MRR over the
// in-scope tasks, abstention precision and recall, false abstention, exact constraint accuracy and
// in-process latency (each task queried `rounds` times; p50 / p99 over every query).
import { isDeepStrictEqual } from "node:util";
import type { IntentAnswer, IntentIndex, TaskConstraints } from "@agentic/intent";
import type { LabelledTask } from "./eval-set";
import { splitOf, type EvalSplit } from "./split";

export interface TaskResult {
  task: string;
  split: EvalSplit;
  expected: string | null;
  abstained: boolean;
  /** 1-based rank of the expected capability among the matches; null when absent (or out of scope). */
  rank: number | null;
  top: string | null;
  topScore: number | null;
  constraintsExact: boolean | null;
  constraints: TaskConstraints;
  expectedConstraints: TaskConstraints | null;
  matches: Array<{ capabilityKey: string; score: number }>;
}

export interface IntentMetrics {
  inScope: number;
  outOfScope: number;
  hitAt1: number;
  hitAt3: number;
  mrr: number;
  /** Share of abstentions that were right (out-of-scope tasks). */
  abstentionPrecision: number;
  /** Share of out-of-scope tasks abstained on (correct abstention). */
  abstentionRecall: number;
  /** Share of in-scope tasks abstained on. */
  falseAbstention: number;
  constraintExact: number;
  /** Per task, its fastest of `rounds` runs (its own cost, without the waits of a shared CPU); p50 / p99 over tasks. */
  p50Ms: number;
  p99Ms: number;
  /** Every run as timed (waits of a loaded machine included). */
  wallP99Ms: number;
}

export const INTENT_TARGETS = {
  hitAt1: 0.95,
  hitAt3: 0.99,
  abstentionRecall: 0.9,
  falseAbstentionMax: 0.03,
  constraintExact: 0.95,
  p99MsMax: 1,
};

/** Matches asked per task: enough for MRR to see past the top 3. */
const EVAL_LIMIT = 10;

export function evaluate(
  index: IntentIndex,
  tasks: readonly LabelledTask[],
  rounds = 5,
): { results: TaskResult[]; metrics: IntentMetrics; bySplit: Record<EvalSplit, IntentMetrics> } {
  const results = tasks.map((t) => resultOf(t, index.query({ task: t.task, limit: EVAL_LIMIT })));
  const fastest = tasks.map(() => Infinity);
  const wall: number[] = [];
  for (let round = 0; round < rounds; round++) {
    tasks.forEach((t, i) => {
      const start = performance.now();
      index.query({ task: t.task, limit: 5 });
      const ms = performance.now() - start;
      wall.push(ms);
      fastest[i] = Math.min(fastest[i]!, ms);
    });
  }
  const part = (split: EvalSplit) => {
    const at = results.flatMap((r, i) => (r.split === split ? [i] : []));
    return metricsOf(
      at.map((i) => results[i]!),
      at.map((i) => fastest[i]!),
      wall.filter((_, j) => results[j % results.length]!.split === split),
    );
  };
  return {
    results,
    metrics: metricsOf(results, fastest, wall),
    bySplit: { tuning: part("tuning"), "held-out": part("held-out") },
  };
}

function resultOf(t: LabelledTask, answer: IntentAnswer): TaskResult {
  const position = t.expected ? answer.matches.findIndex((m) => m.capabilityKey === t.expected) : -1;
  return {
    task: t.task,
    split: splitOf(t.task),
    expected: t.expected ?? null,
    abstained: answer.abstained,
    rank: position >= 0 ? position + 1 : null,
    top: answer.matches[0]?.capabilityKey ?? null,
    topScore: answer.matches[0]?.score ?? null,
    constraintsExact: t.expected ? isDeepStrictEqual(answer.constraints, t.constraints) : null,
    constraints: answer.constraints,
    expectedConstraints: t.expected ? t.constraints : null,
    matches: answer.matches.slice(0, 3).map((m) => ({ capabilityKey: m.capabilityKey, score: m.score })),
  };
}

function metricsOf(results: readonly TaskResult[], latencies: number[], wall: number[]): IntentMetrics {
  const inScope = results.filter((r) => r.expected !== null);
  const outOfScope = results.filter((r) => r.expected === null);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  const abstained = results.filter((r) => r.abstained);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    inScope: inScope.length,
    outOfScope: outOfScope.length,
    hitAt1: share(inScope.filter((r) => r.rank === 1).length, inScope.length),
    hitAt3: share(inScope.filter((r) => r.rank !== null && r.rank <= 3).length, inScope.length),
    mrr: share(
      inScope.reduce((sum, r) => sum + (r.rank ? 1 / r.rank : 0), 0),
      inScope.length,
    ),
    abstentionPrecision: share(abstained.filter((r) => r.expected === null).length, abstained.length),
    abstentionRecall: share(outOfScope.filter((r) => r.abstained).length, outOfScope.length),
    falseAbstention: share(inScope.filter((r) => r.abstained).length, inScope.length),
    constraintExact: share(inScope.filter((r) => r.constraintsExact).length, inScope.length),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    wallP99Ms: percentile(
      [...wall].sort((a, b) => a - b),
      0.99,
    ),
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}
