// Both stores list platform losses from two places (losses of payments, uncharged vendor work on our
// own keys) and hand them out as one list, oldest first.

/** `a` and `b`, each oldest first by createdAt, as one list oldest first (a stable merge: `a` first on a tie). */
export function mergeByTime<T extends { createdAt: Date }>(a: readonly T[], b: readonly T[]): T[] {
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.createdAt.getTime() <= b[j]!.createdAt.getTime())) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}
