// GetContract: the recommend/execute contract of one capability.
import { notFound } from "@agentic/platform";
import type { GetContractRequest, GetContractResponse } from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "../domain";
import { requireCapability } from "./lookups";

export const getContract =
  (catalog: CatalogIndex) =>
  async (req: GetContractRequest): Promise<GetContractResponse> => {
    requireCapability(catalog, req.domainKey, req.capabilityId);
    const contract = catalog.getContract(req.domainKey, req.capabilityId);
    // The loader guarantees a contract per capability; a miss means a broken catalog, not bad input.
    if (!contract)
      throw notFound("CONTRACT_NOT_FOUND", "this capability has no contract", "Report this; every capability should have one.");
    return { contract, catalogVersion: catalog.version };
  };
