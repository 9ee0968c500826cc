// The catalog's capabilities as the intent index reads them: every capability, of every status, as
// the router indexes them (its query() ranks only the live and recommend-only ones, its find() all),
// each with its routes and execute contract.
import type { IntentSource } from "@agentic/intent";
import type { CatalogIndex } from "../domain";

export function intentSourcesOf(catalog: CatalogIndex): IntentSource[] {
  return catalog.listDomains().flatMap((d) =>
    (catalog.listCapabilities(d.domainKey) ?? []).map((capability) => ({
      capability,
      routes: catalog.listCapabilityRoutes(d.domainKey, capability.capabilityId) ?? [],
      execute: catalog.getContract(d.domainKey, capability.capabilityId)?.execute,
    })),
  );
}
