// Resolves path keys against the catalog, turning a miss into the public 404 errors.
import { notFound } from "@agentic/platform";
import type { Capability, Domain } from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "../domain";

export function requireDomain(catalog: CatalogIndex, domainKey: string): Domain {
  const domain = catalog.getDomain(domainKey);
  if (!domain) throw notFound("DOMAIN_NOT_FOUND", `domain '${domainKey}' does not exist`, "List the domains with GET /domains.");
  return domain;
}

export function requireCapability(catalog: CatalogIndex, domainKey: string, capabilityId: string): Capability {
  requireDomain(catalog, domainKey);
  const capability = catalog.getCapability(domainKey, capabilityId);
  if (!capability) {
    throw notFound(
      "CAPABILITY_NOT_FOUND",
      `capability '${capabilityId}' does not exist in domain '${domainKey}'`,
      `List the capabilities with GET /domains/${domainKey}/capabilities.`,
    );
  }
  return capability;
}
