// Reads capabilities and their routes from the catalog service and caches them per catalog
// version. Every answer carries the catalog version; a cheap ListDomains poll notices a new one
// between requests, and any answer with a new version drops everything cached under the old one.
// While the catalog is unreachable, cached entries keep being served.
import { status } from "@grpc/grpc-js";
import { fromServiceError, notFound, unavailable, type CallOpts, type Logger } from "@agentic/platform";
import type {
  Capability,
  GetCapabilityRequest,
  GetCapabilityResponse,
  ListCapabilityRoutesRequest,
  ListCapabilityRoutesResponse,
  ListDomainsRequest,
  ListDomainsResponse,
  Route,
} from "@agentic/proto/catalog/v1";

/** The catalog calls the cache makes (a CatalogClient of @agentic/clients satisfies it). */
export interface CatalogSource {
  listDomains(req: ListDomainsRequest, opts?: CallOpts): Promise<ListDomainsResponse>;
  getCapability(req: GetCapabilityRequest, opts?: CallOpts): Promise<GetCapabilityResponse>;
  listCapabilityRoutes(req: ListCapabilityRoutesRequest, opts?: CallOpts): Promise<ListCapabilityRoutesResponse>;
}

/** One capability and all its routes, read from one catalog version. */
export interface CapabilityEntry {
  capability: Capability;
  routes: Route[];
  catalogVersion: string;
}

export interface CatalogCacheOptions {
  /** Interval of the version poll, in ms. */
  refreshMs: number;
  logger: Logger;
}

export class CatalogCache {
  private version: string | undefined;
  /** Entries of the current version only. */
  private readonly entries = new Map<string, CapabilityEntry>();
  /** Reads in flight, so concurrent misses of one key make one read. */
  private readonly loading = new Map<string, Promise<CapabilityEntry>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: CatalogSource,
    private readonly opts: CatalogCacheOptions,
  ) {}

  /** The catalog version last seen, if any. */
  get catalogVersion(): string | undefined {
    return this.version;
  }

  /** Starts the version poll (the first check runs at once; failures are logged and retried). */
  start(): void {
    const tick = () => void this.refresh().catch(() => undefined);
    this.timer = setInterval(tick, this.opts.refreshMs);
    this.timer.unref();
    tick();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Checks the catalog version now; drops the cache when it changed. Throws when the catalog is unreachable. */
  async refresh(): Promise<void> {
    try {
      const res = await this.source.listDomains({});
      this.observe(res.catalogVersion);
    } catch (err) {
      this.opts.logger.warn({ err }, "catalog version check failed; serving cached entries");
      throw err;
    }
  }

  /**
   * A capability and its routes. Unknown domain or capability: NOT_FOUND with the catalog's own
   * code (DOMAIN_NOT_FOUND, CAPABILITY_NOT_FOUND) and hint. Catalog down and nothing cached: UNAVAILABLE.
   */
  async capability(domainKey: string, capabilityId: string, callOpts?: CallOpts): Promise<CapabilityEntry> {
    const key = `${domainKey}/${capabilityId}`;
    const cached = this.entries.get(key);
    if (cached) return cached;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.load(domainKey, capabilityId, callOpts).finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    // Failures are not cached: the next call asks again.
    const entry = await loading;
    if (entry.catalogVersion === this.version) this.entries.set(key, entry);
    return entry;
  }

  private async load(domainKey: string, capabilityId: string, callOpts?: CallOpts): Promise<CapabilityEntry> {
    // Two reads may straddle a catalog reload; read again until both name the same version.
    for (let attempt = 0; ; attempt++) {
      const [cap, routes] = await Promise.all([
        this.source.getCapability({ domainKey, capabilityId }, callOpts),
        this.source.listCapabilityRoutes({ domainKey, capabilityId }, callOpts),
      ]).catch((err: unknown) => {
        throw this.publicError(err);
      });
      if (cap.catalogVersion === routes.catalogVersion || attempt >= 2) {
        if (!cap.capability) throw unavailable("UNAVAILABLE", "the catalog answered without the capability", "Retry shortly.");
        this.observe(routes.catalogVersion);
        return { capability: cap.capability, routes: routes.routes, catalogVersion: routes.catalogVersion };
      }
    }
  }

  /** Adopts `version`; everything cached under another version is dropped. */
  private observe(version: string): void {
    if (version === this.version) return;
    if (this.version !== undefined) this.opts.logger.info({ from: this.version, to: version }, "catalog version changed; cache dropped");
    this.version = version;
    this.entries.clear();
  }

  private publicError(err: unknown): Error {
    const remote = fromServiceError(err);
    if (remote.grpcCode === status.NOT_FOUND) return notFound(remote.code, remote.message, remote.hint);
    this.opts.logger.warn({ err }, "catalog read failed");
    return unavailable("UNAVAILABLE", "the catalog could not be read", "Retry shortly; recommend reads routes from the catalog.");
  }
}
