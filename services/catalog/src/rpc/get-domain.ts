// GetDomain: one domain by key.
import type { GetDomainRequest, GetDomainResponse } from "@agentic/proto/catalog/v1";
import { requireDomain, type CatalogIndex } from "../domain";

export const getDomain =
  (catalog: CatalogIndex) =>
  async (req: GetDomainRequest): Promise<GetDomainResponse> => ({
    domain: requireDomain(catalog, req.domainKey),
    catalogVersion: catalog.version,
  });
