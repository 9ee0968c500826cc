// ListDomains: every domain in catalog order.
import type { ListDomainsRequest, ListDomainsResponse } from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "../domain";

export const listDomains =
  (catalog: CatalogIndex) =>
  async (_req: ListDomainsRequest): Promise<ListDomainsResponse> => ({
    domains: catalog.listDomains(),
    catalogVersion: catalog.version,
  });
