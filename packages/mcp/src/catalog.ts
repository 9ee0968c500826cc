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
import { DEFAULT_GENERIC_TOOLS_ABOVE, usesGenericToolsOnly } from "./generic-tools-threshold";

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

/** Items per page of the cross-domain lists read for a large catalog (their maximum). */
const LIST_PAGE_LIMIT = 200;

/** Every item of a cross-domain list (GET /capabilities, GET /routes), page by page; undefined when the catalog changed mid-walk (410). */
async function readAllPages<T>(client: AgenticApiClient, path: string): Promise<T[] | undefined> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await client.raw.request<T[]>({
      method: "GET",
      path,
      auth: false,
      retry: {},
      query: { limit: LIST_PAGE_LIMIT, ...(cursor ? { cursor } : {}) },
    });
    if (answer.status === 410) return undefined;
    if (answer.status !== 200) throw errorFromResponse(answer.status, answer.data, answer.headers);
    items.push(...answer.data);
    const next = answer.headers.get("link")?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    cursor = next ? (new URL(next, "http://next.invalid").searchParams.get("cursor") ?? undefined) : undefined;
  } while (cursor);
  return items;
}

/**
 * A large catalog's capabilities and routes from the cross-domain lists (a few dozen pages, not two
 * requests per domain), without contracts: none of its capabilities gets tools of its own.
 */
async function readLarge(client: AgenticApiClient): Promise<CatalogCapability[] | undefined> {
  const [entries, routes] = await Promise.all([
    readAllPages<CapabilityCatalogEntry>(client, "/capabilities"),
    readAllPages<RouteCatalogEntry>(client, "/routes"),
  ]);
  if (!entries || !routes) return undefined;
  const byCapability = new Map<string, RouteCatalogEntry[]>();
  for (const r of routes) {
    const own = byCapability.get(r.capabilityKey);
    if (own) own.push(r);
    else byCapability.set(r.capabilityKey, [r]);
  }
  return entries.map((entry) => {
    const own = byCapability.get(entry.capabilityKey) ?? [];
    return { entry, routes: own, executable: executableRoutes(entry, own) };
  });
}

async function readOnce(client: AgenticApiClient, genericToolsAbove: number): Promise<CatalogView & { settled: boolean }> {
  const first = await readDomains(client);
  if (!first.modified) throw new Error("GET /domains answered 304 without a condition");
  const total = first.domains.reduce((sum, d) => sum + d.totalCapabilityCount, 0);
  if (usesGenericToolsOnly(total, genericToolsAbove)) {
    const capabilities = await readLarge(client);
    const again = await readDomains(client, first.etag);
    const settled = capabilities !== undefined && (!again.modified || again.etag === first.etag);
    return { version: first.etag, domains: first.domains, capabilities: capabilities ?? [], settled };
  }
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

/**
 * The catalog from one version; after `tries` reads that each saw the version move, the last one as
 * read. Past `genericToolsAbove` capabilities no contract is read (see buildToolSet).
 */
export async function readCatalog(
  client: AgenticApiClient,
  tries = 3,
  genericToolsAbove = DEFAULT_GENERIC_TOOLS_ABOVE,
): Promise<CatalogView> {
  for (let attempt = 1; ; attempt++) {
    const { settled, ...view } = await readOnce(client, genericToolsAbove);
    if (settled || attempt >= tries) return view;
  }
}
