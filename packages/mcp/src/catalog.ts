// The catalog as the tools are built from it, read over the REST API with the SDK: every domain,
// every capability with its routes, and the contract of each capability that gets tools of its own.
// The catalog version is the ETag of GET /domains: the gateway renders it from the catalog version,
// so it changes when the catalog does, and a conditional GET (304) checks it for the cost of a
// round trip. All reads of one view come from one version: a view whose version moved while it was
// read is read again.
import { createHash } from "node:crypto";
import {
  errorFromResponse,
  type AgenticApiClient,
  type CapabilityCatalogEntry,
  type CapabilityContract,
  type DomainCatalogEntry,
  type RouteCatalogEntry,
} from "@agentic-api/sdk";

export interface CatalogCapability {
  entry: CapabilityCatalogEntry;
  /** Its routes (every status). */
  routes: RouteCatalogEntry[];
  /** Routes that run now, cheapest first (see executableRoutes). */
  executable: RouteCatalogEntry[];
  /** Read for the capabilities that get tools of their own (live and recommend-only). */
  contract?: CapabilityContract;
}

export interface CatalogView {
  /** The ETag of GET /domains (opaque), or a digest of the list when the answer had none. */
  version: string;
  domains: DomainCatalogEntry[];
  capabilities: CatalogCapability[];
}

/**
 * The routes of a live capability that the API executes now: live, brokered on the service's own
 * credentials (managed), and of an enabled provider (the catalog leaves execution-gated routes out
 * of enabledProviders). The same test the catalog's route readiness makes, from what REST shows.
 */
export function executableRoutes(entry: CapabilityCatalogEntry, routes: readonly RouteCatalogEntry[]): RouteCatalogEntry[] {
  if (entry.status !== "live") return [];
  const enabled = new Set(entry.enabledProviders);
  return routes
    .filter((r) => r.status === "live" && r.routeMode === "managed" && enabled.has(r.providerKey))
    .sort((a, b) => a.startingCostCredits - b.startingCostCredits || a.routeKey.localeCompare(b.routeKey));
}

/** Capabilities that get tools of their own: live ones, and recommend-only (gated) ones. */
export function hasOwnTools(entry: CapabilityCatalogEntry): boolean {
  return entry.status === "live" || entry.status === "recommend_only";
}

/** GET /domains, conditional on `etag` when given: the list and its ETag, or "not modified". */
export async function readDomains(
  client: AgenticApiClient,
  etag?: string,
): Promise<{ modified: false } | { modified: true; etag: string; domains: DomainCatalogEntry[] }> {
  // Retried on no answer only (raw never throws for a status); catalog reads need no key.
  const answer = await client.raw.request<DomainCatalogEntry[]>({
    method: "GET",
    path: "/domains",
    auth: false,
    retry: {},
    ...(etag ? { headers: { "if-none-match": etag } } : {}),
  });
  if (answer.status === 304) return { modified: false };
  if (answer.status !== 200) throw errorFromResponse(answer.status, answer.data, answer.headers);
  // Without an ETag (a proxy may drop it) the list itself stands for the version.
  const version = answer.headers.get("etag") ?? `"sha256-${createHash("sha256").update(JSON.stringify(answer.data)).digest("base64url")}"`;
  return { modified: true, etag: version, domains: answer.data };
}

async function readOnce(client: AgenticApiClient): Promise<CatalogView & { settled: boolean }> {
  const first = await readDomains(client);
  if (!first.modified) throw new Error("GET /domains answered 304 without a condition");
  const perDomain = await Promise.all(
    first.domains.map(async (d) => {
      const [entries, routes] = await Promise.all([client.catalog.capabilities.list(d.domainKey), client.catalog.routes.list(d.domainKey)]);
      return Promise.all(
        entries.map(async (entry): Promise<CatalogCapability> => {
          const own = routes.filter((r) => r.capabilityId === entry.capabilityId);
          const contract = hasOwnTools(entry) ? await client.catalog.capabilities.contract(d.domainKey, entry.capabilityId) : undefined;
          return { entry, routes: own, executable: executableRoutes(entry, own), ...(contract ? { contract } : {}) };
        }),
      );
    }),
  );
  const again = await readDomains(client, first.etag);
  const settled = !again.modified || again.etag === first.etag;
  return { version: first.etag, domains: first.domains, capabilities: perDomain.flat(), settled };
}

/** The catalog from one version; after `tries` reads that each saw the version move, the last one as read. */
export async function readCatalog(client: AgenticApiClient, tries = 3): Promise<CatalogView> {
  for (let attempt = 1; ; attempt++) {
    const { settled, ...view } = await readOnce(client);
    if (settled || attempt >= tries) return view;
  }
}
