// Turns validated data into the wire records (ts-proto types). Everything a reader could compute
// from the data is computed here and nowhere is it typed by hand: keys, paths, endpoints, counts,
// starting prices, provider lists, features, route modes, settlement rails, readiness, domain status.
import { INTENT_ROUTABLE_STATUSES } from "@agentic/intent";
import type { Capability, Contract, Domain, ModelPrice, Route } from "@agentic/proto/catalog/v1";
import { toBillDrivers } from "./bill-drivers";
import { definedOnly, toContract } from "./contract";
import { capabilityIdOf, capabilityKeyOf, routeKeyOf } from "./keys";
import type { RawDomain } from "./raw-catalog";
import { isLiveRoute, routeReadiness } from "./readiness";
import { ROUTE_MODES, SETTLEMENT_RAIL, type RawContractDefaults, type RawModel, type RawProviders, type RawRoute } from "./schema";

/** 1000 credits = 1 USD. */
export const CREDITS_PER_USD = 1000;
/** Our per-token prices are the vendor's list prices plus this managed margin (the catalog's price policy). */
export const TOKEN_PRICE_MARGIN = 0.25;

/**
 * How a route charges one call. "per_token" when it runs on our own vendor key (direct, managed) and
 * lists models: the vendor bills us by tokens, so a fixed price could never cover every request the
 * contract accepts; the executor holds the worst case and charges the vendor's usage. Every other
 * route is "per_call": its price (on x402/MPP the rail never pays a seller more than it), or
 * "per_unit" when the vendor bills per unit counted in the request (billedPer): its price per unit.
 */
export function billingOf(
  route: Pick<RawRoute, "networkKey" | "routeMode" | "models" | "billedPer">,
): "per_call" | "per_token" | "per_unit" {
  if (route.networkKey === "direct" && route.routeMode === "managed" && (route.models?.length ?? 0) > 0) return "per_token";
  return route.billedPer ? "per_unit" : "per_call";
}

/** Our price per 1M tokens in credits, exact to 0.001 credit (list prices have at most 4 decimals). */
function creditsPerMillionTokens(usd: number): number {
  return Math.round(usd * CREDITS_PER_USD * (1 + TOKEN_PRICE_MARGIN) * 1000) / 1000;
}

function toModelPrice(m: RawModel): ModelPrice {
  return {
    model: m.model,
    inputCreditsPerMillionTokens: creditsPerMillionTokens(m.inputUsdPerMillionTokens),
    outputCreditsPerMillionTokens: creditsPerMillionTokens(m.outputUsdPerMillionTokens),
    vendorInputUsdPerMillionTokens: m.inputUsdPerMillionTokens,
    vendorOutputUsdPerMillionTokens: m.outputUsdPerMillionTokens,
    maxOutputTokens: m.maxOutputTokens,
    maxReasoningTokens: m.maxReasoningTokens,
    priceSource: m.priceSource,
    outputTokensPerSecond: m.outputTokensPerSecond ?? 0,
  };
}

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

/** Derives every domain, capability, route and contract; `basePath` prefixes all paths ("/api/agentic-api"). */
export function deriveCatalog(catalog: ValidCatalog, basePath: string): DerivedDomain[] {
  return catalog.domains.map((d) => deriveDomain(d, catalog, basePath));
}

function deriveDomain(raw: RawDomain, catalog: ValidCatalog, basePath: string): DerivedDomain {
  const domainKey = raw.key;
  const domainPath = `${basePath}/domains/${domainKey}`;
  const capabilities = raw.data.capabilities.map((c) => deriveCapability(domainKey, c, catalog, domainPath));
  const liveCapabilityCount = capabilities.filter((c) => c.capability.status === "live").length;
  const routable = capabilities.some((c) => INTENT_ROUTABLE_STATUSES.has(c.capability.status));
  const domain: Domain = definedOnly({
    domainKey,
    label: raw.data.label,
    description: raw.data.description,
    status: liveCapabilityCount > 0 ? "live" : "pending",
    capabilitiesPath: `${domainPath}/capabilities`,
    routesPath: `${domainPath}/routes`,
    // A task in words finds the domain's capabilities at POST <domain>/route when any can be recommended.
    routeEndpoint: routable ? `${domainPath}/route` : undefined,
    supportsIntentRouting: routable,
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
      readiness: routeReadiness(r),
      priors: { ...r.priors },
      priceSource: r.priceSource,
      models: (r.models ?? []).map(toModelPrice),
      billing: billingOf(r),
      billedPer: r.billedPer ? { unit: r.billedPer.unit, fields: [...r.billedPer.fields] } : undefined,
      ownedResource: r.ownedResource ? { kind: r.ownedResource.kind, field: r.ownedResource.field } : undefined,
      vendorQuota: r.vendorQuota
        ? {
            requests: r.vendorQuota.requests,
            window: r.vendorQuota.window,
            perUserRequests: r.vendorQuota.perUser ?? Math.max(1, Math.floor(r.vendorQuota.requests / 10)),
          }
        : undefined,
      billDrivers: toBillDrivers(r.billDrivers),
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
    gateReason: raw.status === "live" ? undefined : raw.gateReason,
    contractEndpoint: `${path}/contract`,
    contractStatus: contract.contractStatus,
    exampleTasks: [...(raw.intent?.examples ?? [])],
    synonyms: [...(raw.intent?.synonyms ?? [])],
  });
  return { capability, routes, contract };
}

function cheapest(routes: readonly Route[]): number | undefined {
  return routes.length === 0 ? undefined : Math.min(...routes.map((r) => r.startingCostCredits));
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
