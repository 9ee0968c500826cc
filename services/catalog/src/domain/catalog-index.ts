// The in-memory, read-only catalog the gRPC service serves: lookups by domain and capability,
// a provider/product summary, and a content version that changes whenever the served data does.
import { createHash } from "node:crypto";
import { canonicalJson } from "@agentic/platform/core";
import type { Capability, Contract, Domain, Route } from "@agentic/proto/catalog/v1";
import type { DerivedCapability, DerivedDomain } from "./derive";
import { isLiveRoute } from "./readiness";
import { productKeyOf } from "./keys";

/** Providers and live products across the catalog (feeds the dev wallet helper). */
export interface CatalogSummary {
  /** Every provider named by any route, sorted. */
  providers: string[];
  /** Providers with at least one live route, sorted. */
  enabledProviders: string[];
  /** Every live capability ("<domainKey>.<capabilityId>") with its starting price, in catalog order. */
  products: { productKey: string; startingPriceCredits: number }[];
}

/**
 * Read-only view of a loaded catalog. Records are frozen and shared; list methods return fresh
 * arrays (safe to sort). `undefined` means the domain or capability does not exist.
 */
export interface CatalogIndex {
  /** First 16 hex chars of the sha256 of the served data (canonical JSON); stable across loads of the same data. */
  readonly version: string;
  /** Every domain, in catalog order (_catalog.yaml). */
  listDomains(): Domain[];
  getDomain(domainKey: string): Domain | undefined;
  /** Capabilities of a domain in data order; undefined for an unknown domain. */
  listCapabilities(domainKey: string): Capability[] | undefined;
  getCapability(domainKey: string, capabilityId: string): Capability | undefined;
  /** Every route of every capability of a domain; undefined for an unknown domain. */
  listDomainRoutes(domainKey: string): Route[] | undefined;
  /** Routes of one capability; undefined for an unknown domain or capability. */
  listCapabilityRoutes(domainKey: string, capabilityId: string): Route[] | undefined;
  getContract(domainKey: string, capabilityId: string): Contract | undefined;
  summary(): CatalogSummary;
}

/** Builds the index over derived records. */
export function createCatalogIndex(derived: readonly DerivedDomain[]): CatalogIndex {
  deepFreeze(derived);
  const domains = new Map(derived.map((d) => [d.domain.domainKey, d] as const));
  const find = (domainKey: string, capabilityId: string): DerivedCapability | undefined =>
    domains.get(domainKey)?.capabilities.find((c) => c.capability.capabilityId === capabilityId);

  const allCapabilities = derived.flatMap((d) => d.capabilities);
  const allRoutes = allCapabilities.flatMap((c) => c.routes);
  const summary: CatalogSummary = deepFreeze({
    providers: sortedUnique(allRoutes.map((r) => r.providerKey)),
    enabledProviders: sortedUnique(allRoutes.filter(isLiveRoute).map((r) => r.providerKey)),
    products: allCapabilities
      .filter((c) => c.capability.status === "live")
      .map(({ capability: c }) => ({
        productKey: productKeyOf(c.domainKey, c.capabilityId),
        startingPriceCredits: c.startingPriceCredits ?? 0,
      })),
  });

  return {
    version: versionOf(derived),
    listDomains: () => derived.map((d) => d.domain),
    getDomain: (domainKey) => domains.get(domainKey)?.domain,
    listCapabilities: (domainKey) => domains.get(domainKey)?.capabilities.map((c) => c.capability),
    getCapability: (domainKey, capabilityId) => find(domainKey, capabilityId)?.capability,
    listDomainRoutes: (domainKey) => domains.get(domainKey)?.capabilities.flatMap((c) => c.routes),
    listCapabilityRoutes: (domainKey, capabilityId) => find(domainKey, capabilityId)?.routes.slice(),
    getContract: (domainKey, capabilityId) => find(domainKey, capabilityId)?.contract,
    summary: () => ({
      providers: [...summary.providers],
      enabledProviders: [...summary.enabledProviders],
      products: [...summary.products],
    }),
  };
}

/**
 * sha256 over canonical JSON (object keys sorted), so formatting, comments and key order in YAML do not
 * matter. Hashed domain by domain: a large catalog never becomes one string of all its data.
 */
function versionOf(domains: readonly DerivedDomain[]): string {
  const hash = createHash("sha256");
  for (const domain of domains) hash.update(canonicalJson(domain)).update("\n");
  return hash.digest("hex").slice(0, 16);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
