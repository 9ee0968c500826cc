// GetCatalogSummary: providers and executable products across the catalog.
import type { GetCatalogSummaryRequest, GetCatalogSummaryResponse } from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "../domain";

export const getCatalogSummary =
  (catalog: CatalogIndex) =>
  async (_req: GetCatalogSummaryRequest): Promise<GetCatalogSummaryResponse> => {
    const { providers, enabledProviders, products } = catalog.summary();
    return { providers, enabledProviders, products, catalogVersion: catalog.version };
  };
