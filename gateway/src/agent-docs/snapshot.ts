// Reads what the agent instructions describe from the live catalog: every domain, each capability
// with its status, and the routes a live capability can run on with their prices. One snapshot per
// catalog version (the caller caches it); reads of one version only, retried when a reload
// lands between them. The capabilities and routes are read a page at a time across domains
// (FilterCapabilities, FilterRoutes) and only what the instructions name is kept of each: at 100x
// today's catalog, reading two whole lists per domain (3,400 calls) took the gateway from 183 to
// 300 MB of RSS, which Node keeps.
import { forEachCatalogPage, type CatalogClient } from "@agentic/clients";
import type { Capability, Domain, Route } from "@agentic/proto/catalog/v1";
import { MAX_PAGE_LIMIT } from "../catalog/paging";

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

/** `routes`: the capability's executable routes (only a live capability's are named). */
function toCapability(c: Capability, routes: SnapshotRoute[]): SnapshotCapability {
  return {
    domainKey: c.domainKey,
    capabilityId: c.capabilityId,
    capabilityKey: c.capabilityKey,
    label: c.label,
    description: c.description,
    status: c.status,
    routes: c.status === "live" ? routes.sort((a, b) => a.priceCredits - b.priceCredits || a.routeKey.localeCompare(b.routeKey)) : [],
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
  const executableRoutes = new Map<string, SnapshotRoute[]>();
  await forEachCatalogPage(
    (offset) => catalog.filterRoutes({ offset, limit: MAX_PAGE_LIMIT }).then((p) => ({ ...p, items: p.routes })),
    (page) => {
      same(page.catalogVersion);
      for (const r of page.items.filter(executable)) {
        const own = executableRoutes.get(r.capabilityKey) ?? [];
        own.push(toRoute(r));
        executableRoutes.set(r.capabilityKey, own);
      }
    },
  );
  const capabilities: SnapshotCapability[] = [];
  await forEachCatalogPage(
    (offset) => catalog.filterCapabilities({ offset, limit: MAX_PAGE_LIMIT }).then((p) => ({ ...p, items: p.capabilities })),
    (page) => {
      same(page.catalogVersion);
      for (const c of page.items) capabilities.push(toCapability(c, executableRoutes.get(c.capabilityKey) ?? []));
    },
  );
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
