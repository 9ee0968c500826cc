// The labelled set in two parts, fixed by each task's own text: a tuning part (the constants, the
// abstention thresholds and the catalog's wording may be adjusted while looking at its results) and a
// held-out part (only measured), so the figures show how far tuning carried over to unseen tasks.
// FNV-1a of the lower-cased task: deterministic, the same on every machine, and independent of file order.

export type EvalSplit = "tuning" | "held-out";

export function splitOf(task: string): EvalSplit {
  let hash = 0x811c9dc5;
  for (const ch of task.trim().toLowerCase()) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 2 === 0 ? "tuning" : "held-out";
}
