// Spend summed per UTC day, capability, route and agent: the store's grouped totals folded into the
// four views SummarizeUsage answers. Pure.
import type { TimeRange, UsageTotal } from "./types";

/** The longest range a summary covers (a year and a day, so a leap year fits). */
export const MAX_SUMMARY_DAYS = 366;
const DAY_MS = 86_400_000;

export interface SpendGroup {
  key: string;
  credits: number;
  count: number;
}

export interface UsageSummary {
  totalCredits: number;
  count: number;
  byDay: SpendGroup[];
  byCapability: SpendGroup[];
  byRoute: SpendGroup[];
  byAgent: SpendGroup[];
}

/** Every UTC day [from, to) touches, oldest first (YYYY-MM-DD). */
export function daysOf(range: TimeRange): string[] {
  const days: string[] = [];
  const first = Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth(), range.from.getUTCDate());
  for (let t = first; t < range.to.getTime(); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

function fold(totals: UsageTotal[], keyOf: (t: UsageTotal) => string): Map<string, SpendGroup> {
  const groups = new Map<string, SpendGroup>();
  for (const t of totals) {
    const key = keyOf(t);
    const group = groups.get(key) ?? { key, credits: 0, count: 0 };
    group.credits += t.credits;
    group.count += t.count;
    groups.set(key, group);
  }
  return groups;
}

/** Dearest first, then by key, so equal sums keep one order. */
const dearestFirst = (groups: Map<string, SpendGroup>) =>
  [...groups.values()].sort((a, b) => b.credits - a.credits || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

export function summarizeUsage(range: TimeRange, totals: UsageTotal[]): UsageSummary {
  const perDay = fold(totals, (t) => t.day);
  return {
    totalCredits: totals.reduce((sum, t) => sum + t.credits, 0),
    count: totals.reduce((sum, t) => sum + t.count, 0),
    byDay: daysOf(range).map((day) => perDay.get(day) ?? { key: day, credits: 0, count: 0 }),
    byCapability: dearestFirst(fold(totals, (t) => t.capabilityKey)),
    byRoute: dearestFirst(fold(totals, (t) => t.routeKey)),
    byAgent: dearestFirst(fold(totals, (t) => t.agentName ?? "")),
  };
}
