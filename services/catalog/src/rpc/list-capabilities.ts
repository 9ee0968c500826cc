// ListCapabilities: the capabilities of one domain.
import type { ListCapabilitiesRequest, ListCapabilitiesResponse } from "@agentic/proto/catalog/v1";
import { requireDomain, type CatalogIndex } from "../domain";

export const listCapabilities =
  (catalog: CatalogIndex) =>
  async (req: ListCapabilitiesRequest): Promise<ListCapabilitiesResponse> => {
    requireDomain(catalog, req.domainKey);
    return { capabilities: catalog.listCapabilities(req.domainKey) ?? [], catalogVersion: catalog.version };
  };
