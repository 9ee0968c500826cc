// Sums usage items per day, capability, route and agent (charges only), the shape a server-side summary would answer.
import type { SpendSummary, UsageItem } from "./types";

function add<K extends string>(map: Map<string, { credits: number; count: number }>, key: K, credits: number) {
  const entry = map.get(key) ?? { credits: 0, count: 0 };
  entry.credits += credits;
  entry.count += 1;
  map.set(key, entry);
}

const sorted = <N extends string>(map: Map<string, { credits: number; count: number }>, name: N) =>
  [...map]
    .map(([k, v]) => ({ [name]: k, ...v }) as { [P in N]: string } & { credits: number; count: number })
    .sort((a, b) => b.credits - a.credits);

/** The spend of `items` from `from` to `to`, with every UTC day of the range present (zero when nothing was spent). */
export function summarize(items: UsageItem[], from: Date, to: Date): SpendSummary {
  const days = new Map<string, { credits: number; count: number }>();
  for (let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); t < to.getTime(); t += 86_400_000)
    days.set(new Date(t).toISOString().slice(0, 10), { credits: 0, count: 0 });
  const caps = new Map<string, { credits: number; count: number }>();
  const routes = new Map<string, { credits: number; count: number }>();
  const agents = new Map<string, { credits: number; count: number }>();
  let totalCredits = 0;
  let count = 0;
  for (const item of items) {
    if (item.kind !== "charge" || !item.createdAt) continue;
    const day = item.createdAt.slice(0, 10);
    if (!days.has(day)) continue;
    add(days, day, item.creditsCharged);
    add(caps, item.capabilityKey ?? "", item.creditsCharged);
    add(routes, item.routeKey ?? "", item.creditsCharged);
    add(agents, item.agentName ?? "(no agent)", item.creditsCharged);
    totalCredits += item.creditsCharged;
    count += 1;
  }
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    totalCredits,
    count,
    byDay: [...days].map(([day, v]) => ({ day, ...v })),
    byCapability: sorted(caps, "capabilityKey"),
    byRoute: sorted(routes, "routeKey"),
    byAgent: sorted(agents, "agentName"),
  };
}
