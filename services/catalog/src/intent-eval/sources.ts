// The catalog's capabilities as the intent index reads them: the same subset the router indexes
// (live and recommend-only), each with its routes and execute contract.
import type { IntentSource } from "@agentic/intent";
import type { CatalogIndex } from "../domain";

const ROUTABLE = new Set(["live", "recommend_only"]);

export function intentSourcesOf(catalog: CatalogIndex): IntentSource[] {
  return catalog.listDomains().flatMap((d) =>
    (catalog.listCapabilities(d.domainKey) ?? [])
      .filter((c) => ROUTABLE.has(c.status))
      .map((capability) => ({
        capability,
        routes: catalog.listCapabilityRoutes(d.domainKey, capability.capabilityId) ?? [],
        execute: catalog.getContract(d.domainKey, capability.capabilityId)?.execute,
      })),
  );
}
