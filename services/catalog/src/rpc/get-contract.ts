// GetContract: the recommend/execute contract of one capability.
import type { GetContractRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { capabilityAnswer } from "./answers";

export const getContract =
  (catalog: ServedCatalog) =>
  async (req: GetContractRequest): Promise<Buffer> =>
    capabilityAnswer(catalog, (a) => a.getContract, req);
