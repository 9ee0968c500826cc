// Reads what the agent instructions describe from the live catalog: every domain, each capability
// with its status, and the routes a live capability can run on with their prices. One snapshot per
// catalog version (the caller caches it); reads of one version only, retried when a reload
// lands between them.
import type { CatalogClient } from "@agentic/clients";
import type { Capability, Domain, Route } from "@agentic/proto/catalog/v1";

/** A route a live capability can be executed on. */
export interface SnapshotRoute {
  routeKey: string;
  providerKey: string;
  priceCredits: number;
  /** per_call, per_unit (see unit) or per_token. */
  billing: string;
  /** What a per_unit route bills per (e.g. recipient). */
  unit?: string;
}

export interface SnapshotCapability {
  domainKey: string;
  capabilityId: string;
  capabilityKey: string;
  label: string;
  description: string;
  /** live, recommend_only, planned or pending. */
  status: string;
  /** Executable routes, cheapest first (live capabilities only). */
  routes: SnapshotRoute[];
}

export interface CatalogSnapshot {
  catalogVersion: string;
  domains: Array<Pick<Domain, "domainKey" | "label" | "description" | "status">>;
  capabilities: SnapshotCapability[];
  /** The execute request example of the cheapest live per-call capability, for the curl lines. */
  example?: { domainKey: string; capabilityId: string; capabilityKey: string; executeExample: Record<string, unknown> };
}

/** Domains read at once (two catalog calls each). */
const DOMAINS_AT_ONCE = 16;

/** The catalog decides whether a route can run (its readiness); a route that does not say cannot. */
const executable = (r: Route) => r.readiness?.executable === true;

function toRoute(r: Route): SnapshotRoute {
  return {
    routeKey: r.routeKey,
    providerKey: r.providerKey,
    priceCredits: r.startingCostCredits,
    billing: r.billing || "per_call",
    ...(r.billedPer?.unit ? { unit: r.billedPer.unit } : {}),
  };
}

function toCapability(c: Capability, routes: Route[]): SnapshotCapability {
  const own = c.status === "live" ? routes.filter((r) => r.capabilityId === c.capabilityId && executable(r)) : [];
  return {
    domainKey: c.domainKey,
    capabilityId: c.capabilityId,
    capabilityKey: c.capabilityKey,
    label: c.label,
    description: c.description,
    status: c.status,
    routes: own.map(toRoute).sort((a, b) => a.priceCredits - b.priceCredits || a.routeKey.localeCompare(b.routeKey)),
  };
}

/** Thrown when the catalog changed version between reads; the read is simply done again. */
class VersionMoved extends Error {}

/** One read of everything; `strict`: a read answered from another catalog version starts it again. */
async function readOnce(catalog: CatalogClient, strict: boolean): Promise<CatalogSnapshot> {
  const { domains, catalogVersion } = await catalog.listDomains({});
  const same = (version: string) => {
    if (strict && version !== catalogVersion) throw new VersionMoved();
  };
  const perDomain: SnapshotCapability[][] = [];
  // A few domains at a time: thousands of calls at once would wait past their deadlines and hold every answer at once.
  for (let i = 0; i < domains.length; i += DOMAINS_AT_ONCE) {
    const batch = domains.slice(i, i + DOMAINS_AT_ONCE);
    perDomain.push(
      ...(await Promise.all(
        batch.map(async (d) => {
          const [caps, routes] = await Promise.all([
            catalog.listCapabilities({ domainKey: d.domainKey }),
            catalog.listDomainRoutes({ domainKey: d.domainKey }),
          ]);
          same(caps.catalogVersion);
          same(routes.catalogVersion);
          return caps.capabilities.map((c) => toCapability(c, routes.routes));
        }),
      )),
    );
  }
  const capabilities = perDomain.flat();
  const snapshot: CatalogSnapshot = {
    catalogVersion,
    domains: domains.map(({ domainKey, label, description, status }) => ({ domainKey, label, description, status })),
    capabilities,
  };
  const cheapest = capabilities
    .filter((c) => c.status === "live" && c.routes[0]?.billing === "per_call")
    .sort((a, b) => a.routes[0]!.priceCredits - b.routes[0]!.priceCredits)[0];
  if (cheapest) {
    const { contract } = await catalog.getContract({ domainKey: cheapest.domainKey, capabilityId: cheapest.capabilityId });
    const executeExample = contract?.execute?.requestExample;
    if (executeExample) {
      const { domainKey, capabilityId, capabilityKey } = cheapest;
      snapshot.example = { domainKey, capabilityId, capabilityKey, executeExample };
    }
  }
  return snapshot;
}

/**
 * The catalog as the instructions need it, read from one catalog version. A catalog that keeps
 * reloading mid-read gets a last read that takes what it finds: the version poll of the cache
 * replaces it once the catalog settles.
 */
export async function readCatalogSnapshot(catalog: CatalogClient, tries = 3): Promise<CatalogSnapshot> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(catalog, attempt < tries);
    } catch (err) {
      if (!(err instanceof VersionMoved)) throw err;
    }
  }
}
