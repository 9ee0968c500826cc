// Reads a capability, its routes and its execute contract from the catalog service and caches them
// per catalog version, for the services that route and execute (router, executor): a GetCatalogVersion
// poll (a few bytes) notices a new version, and any answer naming a new version drops everything
// cached under the old one. The cache holds at most `maxEntries` capabilities, the least recently
// used leaving first, so its memory does not grow with the catalog. A new version that fits is read
// whole as soon as the poll sees it (ListCapabilityEntries, a page of up to 200 capabilities a call),
// so no caller's first call of a capability waits for its reads; a larger one is read as it is used.
// While the catalog is unreachable, cached entries keep being served.
import { fromServiceError, notFound, unavailable, type CallOpts, type Logger } from "@agentic/platform";
import { forEachCatalogPage } from "./catalog-pages";
import type {
  Capability,
  Contract,
  Domain,
  GetCapabilityRequest,
  GetCapabilityResponse,
  GetContractRequest,
  GetContractResponse,
  GetCatalogVersionRequest,
  GetCatalogVersionResponse,
  ListCapabilityEntriesRequest,
  ListCapabilityEntriesResponse,
  ListCapabilityRoutesRequest,
  ListCapabilityRoutesResponse,
  ListDomainsRequest,
  ListDomainsResponse,
  OperationContract,
  Route,
} from "@agentic/proto/catalog/v1";

/** The catalog calls the cache makes (a CatalogClient satisfies it). */
export interface CatalogSource {
  getCatalogVersion(req: GetCatalogVersionRequest, opts?: CallOpts): Promise<GetCatalogVersionResponse>;
  listDomains(req: ListDomainsRequest, opts?: CallOpts): Promise<ListDomainsResponse>;
  getCapability(req: GetCapabilityRequest, opts?: CallOpts): Promise<GetCapabilityResponse>;
  listCapabilityRoutes(req: ListCapabilityRoutesRequest, opts?: CallOpts): Promise<ListCapabilityRoutesResponse>;
  getContract(req: GetContractRequest, opts?: CallOpts): Promise<GetContractResponse>;
  listCapabilityEntries(req: ListCapabilityEntriesRequest, opts?: CallOpts): Promise<ListCapabilityEntriesResponse>;
}

/** One capability, all its routes and its execute contract, read from one catalog version. */
export interface CapabilityEntry {
  capability: Capability;
  routes: Route[];
  /** The execute contract; absent when the catalog describes none. */
  execute?: OperationContract;
  /** The recommend contract (the fields recommend itself defines, with their types); absent when none. */
  recommend?: OperationContract;
  catalogVersion: string;
}

/** The whole catalog of one version: its domains and every capability entry (or what a caller kept of each), in catalog order. */
export interface CatalogListing<T = CapabilityEntry> {
  catalogVersion: string;
  domains: Domain[];
  entries: T[];
}

/** Entries asked for per ListCapabilityEntries page (the catalog may send fewer, to keep a page under 1 MiB). */
const ENTRIES_PER_PAGE = 200;

/** Capabilities kept by default: the whole of a catalog many times today's (55), a bounded share of a larger one. */
export const DEFAULT_CATALOG_CACHE_ENTRIES = 1_000;

export class CatalogCache {
  private version: string | undefined;
  /** Entries of the current version only. */
  private readonly entries = new Map<string, CapabilityEntry>();
  /** Reads in flight, so concurrent misses of one key make one read. */
  private readonly loading = new Map<string, Promise<CapabilityEntry>>();
  /** The version whose capabilities were all read ahead (refresh). */
  private readAhead: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  private readonly maxEntries: number;
  private readonly versionListeners: Array<(version: string) => void> = [];

  /** `maxEntries`: most capabilities kept (default DEFAULT_CATALOG_CACHE_ENTRIES). */
  constructor(
    private readonly source: CatalogSource,
    private readonly opts: { refreshMs: number; logger: Logger; maxEntries?: number },
  ) {
    this.maxEntries = opts.maxEntries ?? DEFAULT_CATALOG_CACHE_ENTRIES;
  }

  /** How many capabilities are cached now (at most maxEntries). */
  get size(): number {
    return this.entries.size;
  }

  /** The catalog version last seen, if any. */
  get catalogVersion(): string | undefined {
    return this.version;
  }

  /** Calls `listener` (after the read that saw it) with each catalog version the cache serves from then on. */
  onNewVersion(listener: (version: string) => void): void {
    this.versionListeners.push(listener);
  }

  /** Starts the version poll (first check at once; failures are logged and retried). */
  start(): void {
    const tick = () => void this.refresh().catch(() => undefined);
    this.timer = setInterval(tick, this.opts.refreshMs);
    this.timer.unref();
    tick();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * Checks the catalog version now; drops the cache when it changed, and reads every capability of a
   * version not read ahead yet (a failed read is only logged: that capability is read on first use).
   * An unchanged version costs one GetCatalogVersion: the entries are read only for a new one.
   */
  async refresh(): Promise<void> {
    let catalogVersion: string;
    try {
      ({ catalogVersion } = await this.source.getCatalogVersion({}));
      this.observe(catalogVersion);
      if (this.readAhead === catalogVersion) return;
      await this.readAll(catalogVersion);
    } catch (err) {
      this.opts.logger.warn({ err }, "catalog version check failed; serving cached entries");
      throw err;
    }
    this.readAhead = catalogVersion;
  }

  /** Reads every capability of the catalog into the cache, a page at a time; none when they would not all fit. */
  private async readAll(catalogVersion: string): Promise<void> {
    try {
      const read = new Map<string, CapabilityEntry>();
      const complete = await this.readEntries(
        catalogVersion,
        (entry) => {
          read.set(cacheKeyOf(entry.capability.domainKey, entry.capability.capabilityId), entry);
        },
        undefined,
        this.maxEntries,
      );
      // A catalog that does not fit is read as it is used; one that changed meanwhile, by the next poll.
      if (!complete || this.version !== catalogVersion) return;
      for (const [key, entry] of read) if (!this.entries.has(key)) this.entries.set(key, entry);
    } catch (err) {
      this.opts.logger.warn({ err }, "reading the catalog ahead failed; capabilities are read on first use");
    }
  }

  /**
   * Every domain and every capability of the catalog version current now, each capability entry passed
   * through `project` as it is read, so the caller keeps only what it needs (at 100x today's catalog the
   * entries themselves are tens of MB). For what reads the whole catalog once per version, such as an
   * intent index; the caller keeps the result. Read in pages (ListCapabilityEntries), none entering
   * the cache (a whole-catalog read would push out the capabilities in use).
   */
  async listing<T>(project: (entry: CapabilityEntry) => T, callOpts?: CallOpts): Promise<CatalogListing<T>> {
    const listed = await this.source.listDomains({}, callOpts).catch((err: unknown) => {
      throw this.publicError(err);
    });
    this.observe(listed.catalogVersion);
    const entries: T[] = [];
    await this.readEntries(listed.catalogVersion, (entry) => entries.push(project(entry)), callOpts);
    return { catalogVersion: listed.catalogVersion, domains: listed.domains, entries };
  }

  /**
   * Passes every capability entry of `catalogVersion` to `take`, a ListCapabilityEntries page at a
   * time; false, having read one page only, when the catalog holds more than `most`. A page of another
   * version (the catalog reloaded mid-read) is UNAVAILABLE: entries of two versions never mix.
   */
  private async readEntries(
    catalogVersion: string,
    take: (entry: CapabilityEntry) => void,
    callOpts?: CallOpts,
    most = Number.POSITIVE_INFINITY,
  ): Promise<boolean> {
    const read = (offset: number) =>
      this.source
        .listCapabilityEntries({ offset, limit: ENTRIES_PER_PAGE }, callOpts)
        .then((page) => ({ ...page, items: page.entries }))
        .catch((err: unknown) => {
          throw this.publicError(err);
        });
    return forEachCatalogPage(read, (page) => {
      this.observe(page.catalogVersion);
      if (page.catalogVersion !== catalogVersion)
        throw unavailable("UNAVAILABLE", "the catalog changed while it was read", "Retry shortly.");
      if (page.total > most) return false;
      for (const { capability, routes, contract } of page.items) {
        if (!capability) throw unavailable("UNAVAILABLE", "the catalog answered an entry without its capability", "Retry shortly.");
        take(entryFrom(capability, routes, contract, catalogVersion));
      }
    });
  }

  /**
   * A capability with its routes and execute contract. Unknown domain or capability: NOT_FOUND
   * with the catalog's code and hint. Catalog down with nothing cached: UNAVAILABLE.
   */
  async capability(domainKey: string, capabilityId: string, callOpts?: CallOpts): Promise<CapabilityEntry> {
    const key = cacheKeyOf(domainKey, capabilityId);
    const cached = this.entries.get(key);
    if (cached) {
      // Most recently used last: the first key is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    // Concurrent misses of one capability share its read.
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.load(domainKey, capabilityId, callOpts).finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    const entry = await loading;
    if (entry.catalogVersion === this.version) {
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }

  private async load(domainKey: string, capabilityId: string, callOpts?: CallOpts): Promise<CapabilityEntry> {
    // Three reads may straddle a catalog reload; read again until all name the same version.
    for (let attempt = 0; ; attempt++) {
      const [cap, routes, contract] = await Promise.all([
        this.source.getCapability({ domainKey, capabilityId }, callOpts),
        this.source.listCapabilityRoutes({ domainKey, capabilityId }, callOpts),
        this.source.getContract({ domainKey, capabilityId }, callOpts),
      ]).catch((err: unknown) => {
        throw this.publicError(err);
      });
      const sameVersion = cap.catalogVersion === routes.catalogVersion && routes.catalogVersion === contract.catalogVersion;
      if (sameVersion || attempt >= 2) {
        if (!cap.capability) throw unavailable("UNAVAILABLE", "the catalog answered without the capability", "Retry shortly.");
        this.observe(routes.catalogVersion);
        return entryFrom(cap.capability, routes.routes, contract.contract, routes.catalogVersion);
      }
    }
  }

  private observe(version: string): void {
    if (version === this.version) return;
    if (this.version !== undefined) this.opts.logger.info({ from: this.version, to: version }, "catalog version changed; cache dropped");
    this.version = version;
    this.entries.clear();
    for (const listener of this.versionListeners) setImmediate(() => listener(version));
  }

  private publicError(err: unknown): Error {
    const remote = fromServiceError(err);
    if (remote.kind === "not_found") return notFound(remote.code, remote.message, remote.hint);
    this.opts.logger.warn({ err }, "catalog read failed");
    return unavailable("UNAVAILABLE", "the catalog could not be read", "Retry shortly.");
  }
}

const cacheKeyOf = (domainKey: string, capabilityId: string): string => `${domainKey}/${capabilityId}`;

/** The cache's entry of one capability, from what the catalog answered of it. */
function entryFrom(capability: Capability, routes: Route[], contract: Contract | undefined, catalogVersion: string): CapabilityEntry {
  const { execute, recommend } = contract ?? {};
  return { capability, routes, ...(execute ? { execute } : {}), ...(recommend ? { recommend } : {}), catalogVersion };
}
