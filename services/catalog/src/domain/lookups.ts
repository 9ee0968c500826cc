// Resolves path keys against the catalog, turning a miss into the public not-found errors.
import { notFound } from "@agentic/platform/core";
import type { Capability, Contract, Domain } from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "./catalog-index";

/** The error for a domain that does not exist. */
export const domainNotFound = (domainKey: string): Error =>
  notFound("DOMAIN_NOT_FOUND", `domain '${domainKey}' does not exist`, "List the domains with GET /domains.");

/** The error for a capability that does not exist in a domain that does. */
export const capabilityNotFound = (domainKey: string, capabilityId: string): Error =>
  notFound(
    "CAPABILITY_NOT_FOUND",
    `capability '${capabilityId}' does not exist in domain '${domainKey}'`,
    `List the capabilities with GET /domains/${domainKey}/capabilities.`,
  );

export function requireDomain(catalog: CatalogIndex, domainKey: string): Domain {
  const domain = catalog.getDomain(domainKey);
  if (!domain) throw domainNotFound(domainKey);
  return domain;
}

export function requireCapability(catalog: CatalogIndex, domainKey: string, capabilityId: string): Capability {
  requireDomain(catalog, domainKey);
  const capability = catalog.getCapability(domainKey, capabilityId);
  if (!capability) throw capabilityNotFound(domainKey, capabilityId);
  return capability;
}

export function requireContract(catalog: CatalogIndex, domainKey: string, capabilityId: string): Contract {
  requireCapability(catalog, domainKey, capabilityId);
  const contract = catalog.getContract(domainKey, capabilityId);
  // The loader guarantees a contract per capability; a miss means a broken catalog, not bad input.
  if (!contract) throw notFound("CONTRACT_NOT_FOUND", "this capability has no contract", "Report this; every capability should have one.");
  return contract;
}
