// GetDomain: one domain by key.
import type { GetDomainRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { domainAnswer } from "./answers";

export const getDomain =
  (catalog: ServedCatalog) =>
  async (req: GetDomainRequest): Promise<Buffer> =>
    domainAnswer(catalog, (a) => a.getDomain, req.domainKey);
