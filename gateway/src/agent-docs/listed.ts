// Which capabilities and domains the agent instructions name. A catalog of a few dozen capabilities
// is named whole; past MAX_LISTED_CAPABILITIES the instructions name the top ones (most executable
// routes, then cheapest, then by key: stable for one catalog version) and the largest domains, and
// say how to search the rest (/route, GET /capabilities?q=), so SKILL.md and llms.txt stay a few
// hundred lines however large the catalog grows.
import type { CatalogSnapshot, SnapshotCapability } from "./snapshot";

/** Most live plus gated capabilities named; today's catalog (55 in all) is named whole. */
export const MAX_LISTED_CAPABILITIES = 60;
/** Most domains named once the capabilities are cut. */
export const MAX_LISTED_DOMAINS = 40;

export interface ListedDomain {
  domainKey: string;
  label: string;
  description: string;
  /** Its live capabilities. */
  liveCount: number;
}

export interface Listed {
  live: SnapshotCapability[];
  gated: SnapshotCapability[];
  /** Live and gated capabilities left unnamed; 0 when the catalog is named whole. */
  omitted: number;
  /** Set when capabilities were left out: the domains named (largest first) and how many domains there are. */
  domains?: { named: ListedDomain[]; total: number };
}

/** Top first: more executable routes, then the cheaper starting price, then the key. */
function byTop(a: SnapshotCapability, b: SnapshotCapability): number {
  return (
    b.routes.length - a.routes.length ||
    (a.routes[0]?.priceCredits ?? Infinity) - (b.routes[0]?.priceCredits ?? Infinity) ||
    a.capabilityKey.localeCompare(b.capabilityKey)
  );
}

export function listedOf(snapshot: CatalogSnapshot): Listed {
  const live = snapshot.capabilities.filter((c) => c.status === "live");
  const gated = snapshot.capabilities.filter((c) => c.status === "recommend_only");
  if (live.length + gated.length <= MAX_LISTED_CAPABILITIES) return { live, gated, omitted: 0 };

  const namedLive = [...live].sort(byTop).slice(0, MAX_LISTED_CAPABILITIES);
  const namedGated = [...gated].sort(byTop).slice(0, Math.max(0, MAX_LISTED_CAPABILITIES - namedLive.length));
  const liveCounts = new Map<string, number>();
  for (const c of live) liveCounts.set(c.domainKey, (liveCounts.get(c.domainKey) ?? 0) + 1);
  const named = snapshot.domains
    .map((d) => ({ domainKey: d.domainKey, label: d.label, description: d.description, liveCount: liveCounts.get(d.domainKey) ?? 0 }))
    .sort((a, b) => b.liveCount - a.liveCount || a.domainKey.localeCompare(b.domainKey))
    .slice(0, MAX_LISTED_DOMAINS);
  return {
    live: namedLive,
    gated: namedGated,
    omitted: live.length + gated.length - namedLive.length - namedGated.length,
    domains: { named, total: snapshot.domains.length },
  };
}
