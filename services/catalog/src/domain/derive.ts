// Turns validated data into the wire records (ts-proto types). Everything a reader could compute
// from the data is computed here and nowhere is it typed by hand: keys, paths, endpoints, counts,
// starting prices, provider lists, features, route modes, settlement rails, domain status.
import type { Capability, Contract, Domain, Route } from "@agentic/proto/catalog/v1";
import { definedOnly, toContract } from "./contract";
import { capabilityIdOf, capabilityKeyOf, routeKeyOf } from "./keys";
import type { RawDomain } from "./read";
import { ROUTE_MODES, SETTLEMENT_RAIL, type RawContractDefaults, type RawProviders } from "./schema";

/** The parts of a catalog that passed every check. */
export interface ValidCatalog {
  domains: RawDomain[];
  providers: RawProviders;
  defaults: RawContractDefaults;
}

/** One capability with everything that hangs off it. */
export interface DerivedCapability {
  capability: Capability;
  routes: Route[];
  contract: Contract;
}

export interface DerivedDomain {
  domain: Domain;
  capabilities: DerivedCapability[];
}

/**
 * A live route is one the executor can run now: status "live" and not execution-gated.
 * Starting prices, enabled providers and live counts all use this one definition.
 */
export function isLiveRoute(route: { status: string; executionGated: boolean }): boolean {
  return route.status === "live" && !route.executionGated;
}

/** Derives every domain, capability, route and contract; `basePath` prefixes all paths ("/api/agentic-api"). */
export function deriveCatalog(catalog: ValidCatalog, basePath: string): DerivedDomain[] {
  return catalog.domains.map((d) => deriveDomain(d, catalog, basePath));
}

function deriveDomain(raw: RawDomain, catalog: ValidCatalog, basePath: string): DerivedDomain {
  const domainKey = raw.key;
  const domainPath = `${basePath}/domains/${domainKey}`;
  const capabilities = raw.data.capabilities.map((c) => deriveCapability(domainKey, c, catalog, domainPath));
  const liveCapabilityCount = capabilities.filter((c) => c.capability.status === "live").length;
  const domain: Domain = definedOnly({
    domainKey,
    label: raw.data.label,
    description: raw.data.description,
    status: liveCapabilityCount > 0 ? "live" : "pending",
    capabilitiesPath: `${domainPath}/capabilities`,
    routesPath: `${domainPath}/routes`,
    // No domain offers intent routing (routing a free-text ask to a capability) yet.
    routeEndpoint: undefined,
    supportsIntentRouting: false,
    liveCapabilityCount,
    totalCapabilityCount: capabilities.length,
    startingPriceCredits: cheapest(capabilities.flatMap((c) => c.routes).filter(isLiveRoute)),
  });
  return { domain, capabilities };
}

function deriveCapability(
  domainKey: string,
  raw: RawDomain["data"]["capabilities"][number],
  catalog: ValidCatalog,
  domainPath: string,
): DerivedCapability {
  const capabilityKey = capabilityKeyOf(domainKey, raw.key);
  const capabilityId = capabilityIdOf(raw.key);
  const path = `${domainPath}/capabilities/${capabilityId}`;

  const routes: Route[] = raw.routes.map((r) =>
    definedOnly({
      routeKey: routeKeyOf(capabilityKey, r.providerKey, r.networkKey),
      domainKey,
      capabilityKey,
      capabilityId,
      providerKey: r.providerKey,
      providerLabel: catalog.providers[r.providerKey]?.label ?? r.providerKey,
      networkKey: r.networkKey,
      routeMode: r.routeMode,
      managedByAgenticApi: r.routeMode === "managed",
      settlementRail: SETTLEMENT_RAIL[r.networkKey],
      supportedFeatures: sortedUnique(r.supportedFeatures),
      summary: r.summary,
      startingCostCredits: r.priceCredits,
      status: r.status,
      executionGated: r.executionGated,
      priors: { ...r.priors },
      priceSource: r.priceSource,
    }),
  );

  const contract = toContract({ domainKey, capabilityKey, capabilityId, docsUrl: raw.docsUrl }, raw.contract, catalog.defaults);
  const live = routes.filter(isLiveRoute);
  const capability: Capability = definedOnly({
    capabilityKey,
    capabilityId,
    domainKey,
    label: raw.label,
    description: raw.description,
    status: raw.status,
    supportedProviders: sortedUnique(routes.map((r) => r.providerKey)),
    enabledProviders: sortedUnique(live.map((r) => r.providerKey)),
    supportedFeatures: sortedUnique(routes.flatMap((r) => r.supportedFeatures)),
    availableRouteModes: ROUTE_MODES.filter((mode) => routes.some((r) => r.routeMode === mode)),
    // Cheapest live route; with nothing live yet, the cheapest route, so a price is always shown.
    startingPriceCredits: cheapest(live) ?? cheapest(routes),
    recommendEndpoint: `${path}/recommend`,
    executeEndpoint: `${path}/execute`,
    routesEndpoint: `${path}/routes`,
    docsUrl: raw.docsUrl,
    contractEndpoint: `${path}/contract`,
    contractStatus: contract.contractStatus,
  });
  return { capability, routes, contract };
}

function cheapest(routes: readonly Route[]): number | undefined {
  return routes.length === 0 ? undefined : Math.min(...routes.map((r) => r.startingCostCredits));
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
