// ListCapabilityRoutes: the routes of one capability.
import type { ListCapabilityRoutesRequest, ListCapabilityRoutesResponse } from "@agentic/proto/catalog/v1";
import { requireCapability, type CatalogIndex } from "../domain";

export const listCapabilityRoutes =
  (catalog: CatalogIndex) =>
  async (req: ListCapabilityRoutesRequest): Promise<ListCapabilityRoutesResponse> => {
    requireCapability(catalog, req.domainKey, req.capabilityId);
    return { routes: catalog.listCapabilityRoutes(req.domainKey, req.capabilityId) ?? [], catalogVersion: catalog.version };
  };
