// ListCapabilities: the capabilities of one domain.
import type { ListCapabilitiesRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { domainAnswer } from "./answers";

export const listCapabilities =
  (catalog: ServedCatalog) =>
  async (req: ListCapabilitiesRequest): Promise<Buffer> =>
    domainAnswer(catalog, (a) => a.listCapabilities, req.domainKey);
