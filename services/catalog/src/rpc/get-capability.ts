// GetCapability: one capability by domain key and capability id.
import type { GetCapabilityRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { capabilityAnswer } from "./answers";

export const getCapability =
  (catalog: ServedCatalog) =>
  async (req: GetCapabilityRequest): Promise<Buffer> =>
    capabilityAnswer(catalog, (a) => a.getCapability, req);
