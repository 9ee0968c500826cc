// GetCapability: one capability by domain key and capability id.
import type { GetCapabilityRequest, GetCapabilityResponse } from "@agentic/proto/catalog/v1";
import { requireCapability, type CatalogIndex } from "../domain";

export const getCapability =
  (catalog: CatalogIndex) =>
  async (req: GetCapabilityRequest): Promise<GetCapabilityResponse> => ({
    capability: requireCapability(catalog, req.domainKey, req.capabilityId),
    catalogVersion: catalog.version,
  });
