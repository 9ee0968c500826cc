// ListDomainRoutes: every route of every capability of one domain.
import type { ListDomainRoutesRequest, ListDomainRoutesResponse } from "@agentic/proto/catalog/v1";
import { requireDomain, type CatalogIndex } from "../domain";

export const listDomainRoutes =
  (catalog: CatalogIndex) =>
  async (req: ListDomainRoutesRequest): Promise<ListDomainRoutesResponse> => {
    requireDomain(catalog, req.domainKey);
    return { routes: catalog.listDomainRoutes(req.domainKey) ?? [], catalogVersion: catalog.version };
  };
