// Keeps one intent index per catalog version, built in the background from the catalog cache's listing
// of every capability: when the router starts and whenever its catalog poll sees a new version, and on
// a query that finds none. A build never runs under a caller's deadline (a catalog 100x today's takes a
// few seconds to read and index, more than one call may wait): a query waits for it at most as long as
// its own deadline allows, then is told to retry (UNAVAILABLE, Retry-After), while the build goes on.
// The index of the version before keeps answering until the new one is built.
// The one index serves intent routing (RouteTask: its query ranks only live and recommend-only
// capabilities) and the catalog's search box (FindCapabilities: its find reaches every status).
import { setTimeout as sleep } from "node:timers/promises";
import type { CapabilityEntry, CatalogCache, CatalogListing } from "@agentic/clients";
import { unavailable, type CallOpts, type Logger } from "@agentic/platform";
import { IntentIndex, type IntentSource } from "@agentic/intent";

export interface IntentCatalog {
  index: IntentIndex;
  /** Domain keys of the version, for DOMAIN_NOT_FOUND. */
  domainKeys: ReadonlySet<string>;
}

/**
 * A full collection between the build's phases, when the router runs with --expose-gc (its manifest
 * does): Node keeps the heap the build grows to as RSS, and collecting between phases keeps that growth
 * to about what one phase allocates. Without the flag the build runs as it is.
 */
const collectGarbage = typeof globalThis.gc === "function" ? () => globalThis.gc!() : undefined;

/** What a client is told to wait before asking again while an index is being built. */
const BUILDING_RETRY_AFTER_SECONDS = 2;

export class IntentIndexHolder {
  private built: { version: string; catalog: IntentCatalog } | undefined;
  private building: Promise<IntentCatalog> | undefined;

  constructor(
    private readonly catalog: Pick<CatalogCache, "listing" | "catalogVersion">,
    private readonly logger: Logger,
  ) {}

  /** Builds the index of the catalog version current now, unless it is built or being built (a failure is logged). */
  prepare(): void {
    if (this.isCurrent()) return;
    this.build().catch((err: unknown) => this.logger.warn({ err }, "intent index not built; the next query tries again"));
  }

  /**
   * The index of the catalog version current now. One being built is waited for up to
   * `callOpts.deadlineMs`; past that the index of the version before answers, or, with none, UNAVAILABLE.
   */
  async get(callOpts?: CallOpts): Promise<IntentCatalog> {
    if (this.built && this.isCurrent()) return this.built.catalog;
    const build = this.build();
    if (callOpts?.deadlineMs === undefined) return build;
    const timeout = new AbortController();
    try {
      const waited = sleep(callOpts.deadlineMs, undefined, { signal: timeout.signal }).then(() => undefined);
      const catalog = await Promise.race([build, waited]);
      if (catalog) return catalog;
    } finally {
      timeout.abort();
    }
    if (this.built) return this.built.catalog;
    throw stillBuilding();
  }

  private isCurrent(): boolean {
    const version = this.catalog.catalogVersion;
    return this.built !== undefined && version !== undefined && this.built.version === version;
  }

  private build(): Promise<IntentCatalog> {
    this.building ??= (async () => {
      // No deadline of a caller's: each catalog call has its own.
      const listing = await this.catalog.listing(intentSourceOf);
      const started = performance.now();
      const catalog = buildIntentCatalog(listing);
      this.built = { version: listing.catalogVersion, catalog };
      this.logger.info(
        { catalogVersion: listing.catalogVersion, capabilities: catalog.index.size, ms: Math.round(performance.now() - started) },
        "intent index built",
      );
      return catalog;
    })().finally(() => (this.building = undefined));
    return this.building;
  }
}

function stillBuilding(): Error {
  return unavailable(
    "UNAVAILABLE",
    "the intent index of the current catalog version is still being built",
    `Retry in ${BUILDING_RETRY_AFTER_SECONDS} s.`,
    { retryAfterSeconds: BUILDING_RETRY_AFTER_SECONDS },
  );
}

/**
 * What the index reads of a capability entry, and nothing more: the whole entry (routes with their
 * priors and prices, the contract with its examples) is several times larger, and a large catalog's
 * entries are all read at once to build the index.
 */
function intentSourceOf({ capability: c, routes, execute }: CapabilityEntry): IntentSource {
  return {
    capability: {
      capabilityKey: c.capabilityKey,
      capabilityId: c.capabilityId,
      domainKey: c.domainKey,
      label: c.label,
      description: c.description,
      status: c.status,
      startingPriceCredits: c.startingPriceCredits,
      recommendEndpoint: c.recommendEndpoint,
      contractEndpoint: c.contractEndpoint,
      exampleTasks: c.exampleTasks,
      synonyms: c.synonyms,
    },
    routes: routes.map(({ providerKey, providerLabel }) => ({ providerKey, providerLabel })),
    ...(execute
      ? {
          execute: {
            fields: execute.fields.map(({ name, type, required, format, enumValues, notes }) => ({
              name,
              type,
              required,
              format,
              enumValues,
              notes,
            })),
          },
        }
      : {}),
  };
}

/** Indexes every capability of one catalog version, of every status. */
function buildIntentCatalog(listing: CatalogListing<IntentSource>): IntentCatalog {
  return {
    index: new IntentIndex(listing.entries, listing.catalogVersion, undefined, collectGarbage ? { collectGarbage } : {}),
    domainKeys: new Set(listing.domains.map((d) => d.domainKey)),
  };
}
