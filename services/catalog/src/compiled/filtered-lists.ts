// The lists across domains (FilterCapabilities, FilterRoutes), served from the compiled answers:
// what a filter reads of each capability and route is kept beside them, compactly, and a page is the
// compiled entries of its items as they are, then the version and the total (nothing is encoded
// again). Built on the first filtered read of a catalog version, one domain decoded at a time; only
// the filtered fields are kept (a few MB at 100x today's catalog), so a caller never needs to hold the
// whole catalog to list across it.
import { BinaryReader } from "@bufbuild/protobuf/wire";
import {
  FilterCapabilitiesResponse,
  ListCapabilitiesResponse,
  ListCapabilityRoutesResponse,
  type CatalogFilter,
} from "@agentic/proto/catalog/v1";
import type { CompiledDomain, Span } from "./format";

/** What a filter reads of a route, and where its compiled entry is. */
interface ListedRoute {
  status: string;
  provider: string;
  features: readonly string[];
  network: string;
  cost: number;
  entry: Span;
}

/** What a filter reads of a capability, and where its compiled entry is. */
interface ListedCapability {
  status: string;
  providers: readonly string[];
  features: readonly string[];
  /** Unset when it has no route to price it by. */
  price: number | undefined;
  entry: Span;
  routes: readonly ListedRoute[];
}

export interface FilteredLists {
  /** FilterCapabilities' answer: the page's capability entries, the version field, the total. */
  capabilities(filter: CatalogFilter | undefined, offset: number, limit: number): Buffer;
  /** FilterRoutes' answer: the page's route entries, the version field, the total. */
  routes(filter: CatalogFilter | undefined, offset: number, limit: number): Buffer;
}

/** The filtered lists of the compiled catalog whose domains are `domains`, read through `bytes`. */
export function filteredListsOf(domains: readonly CompiledDomain[], bytes: (span: Span) => Buffer, versionField: Buffer): FilteredLists {
  const capabilities: ListedCapability[] = [];
  const byKey = new Map<string, ListedCapability>();
  const one = interner();
  for (const domain of domains) {
    // Decoded one domain at a time, and dropped: only the fields below are kept.
    const decoded = ListCapabilitiesResponse.decode(bytes(domain.capabilities)).capabilities;
    domain.capabilityAnswers.forEach((compiled, i) => {
      const capability = decoded[i]!;
      const routeList = bytes(compiled.routes);
      const routeSpans = entriesIn(routeList, compiled.routes[0]);
      const routes = ListCapabilityRoutesResponse.decode(routeList).routes.map((r, j): ListedRoute => ({
        status: one(r.status),
        provider: one(r.providerKey),
        features: r.supportedFeatures.map(one),
        network: one(r.networkKey),
        cost: r.startingCostCredits,
        entry: routeSpans[j]!,
      }));
      const listed: ListedCapability = {
        status: one(capability.status),
        providers: capability.supportedProviders.map(one),
        features: capability.supportedFeatures.map(one),
        price: capability.startingPriceCredits,
        entry: compiled.capability,
        routes,
      };
      capabilities.push(listed);
      byKey.set(capability.capabilityKey, listed);
    });
  }
  const allRoutes = capabilities.flatMap((c) => c.routes);

  /** The capabilities a filter starts from: its ranking's (each once, unknown keys skipped), else all in catalog order. */
  const candidates = (filter: CatalogFilter | undefined): readonly ListedCapability[] => {
    if (!filter?.ranked) return capabilities;
    const seen = new Set<ListedCapability>();
    for (const key of filter.ranked.capabilityKeys) {
      const found = byKey.get(key);
      if (found) seen.add(found);
    }
    return [...seen];
  };
  // Both answers are field 1 (the page's entries), 2 (the version) and 3 (the total): the total is
  // encoded as either answer would encode it alone.
  const page = (entries: readonly Span[], total: number): Buffer =>
    Buffer.concat([
      ...entries.map(bytes),
      versionField,
      FilterCapabilitiesResponse.encode({ capabilities: [], catalogVersion: "", total }).finish(),
    ]);

  return {
    capabilities(filter, offset, limit) {
      const passing = candidates(filter).filter((c) => capabilityPasses(c, filter));
      return page(
        passing.slice(offset, offset + limit).map((c) => c.entry),
        passing.length,
      );
    },
    routes(filter, offset, limit) {
      const from = filter?.ranked ? candidates(filter).flatMap((c) => c.routes) : allRoutes;
      const passing = from.filter((r) => routePasses(r, filter));
      return page(
        passing.slice(offset, offset + limit).map((r) => r.entry),
        passing.length,
      );
    },
  };
}

function capabilityPasses(c: ListedCapability, f: CatalogFilter | undefined): boolean {
  if (!f) return true;
  return (
    (f.status === undefined || c.status === f.status) &&
    (f.provider === undefined || c.providers.includes(f.provider)) &&
    (f.feature === undefined || c.features.includes(f.feature)) &&
    (f.networkKey === undefined || c.routes.some((r) => r.network === f.networkKey)) &&
    (f.maxPriceCredits === undefined || (c.price !== undefined && c.price <= f.maxPriceCredits))
  );
}

function routePasses(r: ListedRoute, f: CatalogFilter | undefined): boolean {
  if (!f) return true;
  return (
    (f.status === undefined || r.status === f.status) &&
    (f.provider === undefined || r.provider === f.provider) &&
    (f.feature === undefined || r.features.includes(f.feature)) &&
    (f.networkKey === undefined || r.network === f.networkKey) &&
    (f.maxPriceCredits === undefined || r.cost <= f.maxPriceCredits)
  );
}

/**
 * The spans of the entries (field 1, length-delimited) that `list` is made of; `list` starts at
 * `offset` of the body. Only the framing is read, not the entries.
 */
function entriesIn(list: Buffer, offset: number): Span[] {
  const reader = new BinaryReader(list);
  const spans: Span[] = [];
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [, wireType] = reader.tag();
    reader.skip(wireType);
    spans.push([offset + start, reader.pos - start]);
  }
  return spans;
}

/** One string instance per text: a large catalog repeats the same statuses, providers and features thousands of times. */
function interner(): (text: string) => string {
  const kept = new Map<string, string>();
  return (text) => {
    const found = kept.get(text);
    if (found !== undefined) return found;
    kept.set(text, text);
    return text;
  };
}
