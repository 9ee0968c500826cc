// Whether two tasks are the same task in other clothes: equal once normalized, or with character
// trigram (Dice) similarity of at least 0.8. An evaluation task that nearly repeats a catalog example
// would measure memory, not generalization.

export const NEAR_DUPLICATE_SIMILARITY = 0.8;

export function normalizedTask(task: string): string {
  return task
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Trigram counts per normalized task, kept: the duplicate test compares every task with every example. */
const trigramCache = new Map<string, Map<string, number>>();

function trigrams(text: string): Map<string, number> {
  const cached = trigramCache.get(text);
  if (cached) return cached;
  const padded = `  ${text} `;
  const grams = new Map<string, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const g = padded.slice(i, i + 3);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  trigramCache.set(text, grams);
  return grams;
}

/** Dice coefficient over character trigrams of the normalized tasks, 0..1. */
export function taskSimilarity(a: string, b: string): number {
  const [ga, gb] = [trigrams(normalizedTask(a)), trigrams(normalizedTask(b))];
  let shared = 0;
  let total = 0;
  for (const [g, n] of ga) shared += Math.min(n, gb.get(g) ?? 0);
  for (const n of ga.values()) total += n;
  for (const n of gb.values()) total += n;
  return total === 0 ? 1 : (2 * shared) / total;
}

export function isNearDuplicate(a: string, b: string): boolean {
  return normalizedTask(a) === normalizedTask(b) || taskSimilarity(a, b) >= NEAR_DUPLICATE_SIMILARITY;
}
