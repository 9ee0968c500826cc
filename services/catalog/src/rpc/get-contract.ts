// GetContract: the recommend/execute contract of one capability.
import type { GetContractRequest, GetContractResponse } from "@agentic/proto/catalog/v1";
import { requireContract, type CatalogIndex } from "../domain";

export const getContract =
  (catalog: CatalogIndex) =>
  async (req: GetContractRequest): Promise<GetContractResponse> => ({
    contract: requireContract(catalog, req.domainKey, req.capabilityId),
    catalogVersion: catalog.version,
  });
