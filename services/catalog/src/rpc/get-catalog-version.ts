// GetCatalogVersion: the loaded catalog's version alone, for the caches' version polls.
import type { GetCatalogVersionRequest, GetCatalogVersionResponse } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";

export const getCatalogVersion =
  (catalog: ServedCatalog) =>
  async (_req: GetCatalogVersionRequest): Promise<GetCatalogVersionResponse> => ({ catalogVersion: catalog.version });
