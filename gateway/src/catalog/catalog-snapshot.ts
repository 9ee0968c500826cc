// Every capability and route of one catalog version, read once per version, for the lists across
// domains (GET /capabilities, GET /routes) and their filters. The search over words (`q`) uses the
// search code of @agentic/intent that the router answers POST /route with, in a copy of the gateway's
// own built on first use of a version: it indexes every status and no contract fields, so `q` and
// /route may rank a little differently. A new version (seen by the rendered cache's poll) is read again.
// Routes are kept as the REST entries GET /routes answers (what lists, filters and the index read),
// each domain's mapped as it arrives: the catalog's own routes carry priors, readiness, bill drivers
// and quotas no list shows, most of a large catalog's memory.
import { IntentIndex } from "@agentic/intent";
import type { CatalogClient } from "@agentic/clients";
import type { Capability, ListCapabilitiesResponse } from "@agentic/proto/catalog/v1";
import { unavailable } from "@agentic/platform";
import { toRouteEntry } from "../mappers/catalog";
import type { RenderedCatalogCache } from "./rendered-cache";

/** A route as GET /routes lists it. */
export type RouteEntry = ReturnType<typeof toRouteEntry>;

export interface CatalogSnapshot {
  catalogVersion: string;
  /** Every capability, in catalog order. */
  capabilities: readonly Capability[];
  /** Every route as GET /routes lists it, in catalog order. */
  routes: readonly RouteEntry[];
  routesByCapability: ReadonlyMap<string, readonly RouteEntry[]>;
  capabilitiesByKey: ReadonlyMap<string, Capability>;
  /** Capability keys the words reach, best first. */
  find(words: string): readonly string[];
}

/** Reads of one version that straddle a catalog reload are read again, this many times at most. */
const READ_ATTEMPTS = 3;
/**
 * Domains read at once (two calls each): thousands of calls at once would each wait behind the
 * others past its deadline, and fail the read of a large catalog.
 */
const DOMAINS_AT_ONCE = 16;

export class CatalogSnapshots {
  private current: { catalogVersion: string; read: Promise<CatalogSnapshot> } | undefined;

  constructor(
    private readonly catalog: Pick<CatalogClient, "listDomains" | "listCapabilities" | "listDomainRoutes">,
    private readonly cache: Pick<RenderedCatalogCache, "catalogVersion">,
  ) {}

  /** The snapshot of the catalog version the gateway serves now (concurrent callers share one read). */
  get(): Promise<CatalogSnapshot> {
    const current = this.current;
    if (current && (current.catalogVersion === this.cache.catalogVersion || current.catalogVersion === "")) return current.read;
    const read = this.read();
    const entry = { catalogVersion: "", read };
    this.current = entry;
    read.then(
      (s) => (entry.catalogVersion = s.catalogVersion),
      () => {
        if (this.current === entry) this.current = undefined;
      },
    );
    return read;
  }

  private async read(): Promise<CatalogSnapshot> {
    for (let attempt = 1; ; attempt++) {
      const listed = await this.catalog.listDomains({});
      const keys = listed.domains.map((d) => d.domainKey);
      const capabilities: ListCapabilitiesResponse[] = [];
      const routes: RouteEntry[] = [];
      const intern = interner();
      const versions = new Set([listed.catalogVersion]);
      for (let i = 0; i < keys.length; i += DOMAINS_AT_ONCE) {
        const batch = keys.slice(i, i + DOMAINS_AT_ONCE);
        const [c, r] = await Promise.all([
          Promise.all(batch.map((domainKey) => this.catalog.listCapabilities({ domainKey }))),
          Promise.all(batch.map((domainKey) => this.catalog.listDomainRoutes({ domainKey }))),
        ]);
        for (const answer of c) capabilities.push(intern(answer));
        for (const answer of [...c, ...r]) versions.add(answer.catalogVersion);
        for (const answer of r) for (const route of answer.routes) routes.push(intern(toRouteEntry(route)));
      }
      if (versions.size === 1)
        return snapshotOf(
          listed.catalogVersion,
          capabilities.flatMap((c) => c.capabilities),
          routes,
        );
      if (attempt >= READ_ATTEMPTS) throw unavailable("UNAVAILABLE", "the catalog changed while it was read", "Retry shortly.");
    }
  }
}

/**
 * Returns a function that makes every string in a decoded value (its fields, arrays and nested
 * objects, in place) the one instance kept for its text. Decoding makes a new string for each field
 * of each message, and a large catalog repeats the same statuses, modes, providers and domain keys
 * hundreds of thousands of times: at 100x today's catalog, about a third of the snapshot's strings.
 */
function interner(): <T>(value: T) => T {
  const kept = new Map<string, string>();
  const one = (text: string): string => {
    const found = kept.get(text);
    if (found !== undefined) return found;
    kept.set(text, text);
    return text;
  };
  const visit = (value: unknown): unknown => {
    if (typeof value === "string") return one(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = visit(value[i]);
    } else if (value !== null && typeof value === "object" && !ArrayBuffer.isView(value)) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = visit(record[key]);
    }
    return value;
  };
  return <T>(value: T): T => visit(value) as T;
}

function snapshotOf(catalogVersion: string, capabilities: Capability[], routes: RouteEntry[]): CatalogSnapshot {
  const routesByCapability = new Map<string, RouteEntry[]>();
  for (const r of routes) {
    const list = routesByCapability.get(r.capabilityKey);
    if (list) list.push(r);
    else routesByCapability.set(r.capabilityKey, [r]);
  }
  let index: IntentIndex | undefined;
  return {
    catalogVersion,
    capabilities,
    routes,
    routesByCapability,
    capabilitiesByKey: new Map(capabilities.map((c) => [c.capabilityKey, c])),
    find(words) {
      index ??= new IntentIndex(
        capabilities.map((capability) => ({ capability, routes: routesByCapability.get(capability.capabilityKey) ?? [] })),
        catalogVersion,
      );
      return index.find(words);
    },
  };
}
