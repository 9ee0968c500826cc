// ListDomainRoutes: every route of every capability of one domain.
import type { ListDomainRoutesRequest, ListDomainRoutesResponse } from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "../domain";
import { requireDomain } from "./lookups";

export const listDomainRoutes =
  (catalog: CatalogIndex) =>
  async (req: ListDomainRoutesRequest): Promise<ListDomainRoutesResponse> => {
    requireDomain(catalog, req.domainKey);
    return { routes: catalog.listDomainRoutes(req.domainKey) ?? [], catalogVersion: catalog.version };
  };
