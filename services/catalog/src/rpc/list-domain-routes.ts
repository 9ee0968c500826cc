// ListDomainRoutes: every route of every capability of one domain.
import type { ListDomainRoutesRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { domainAnswer } from "./answers";

export const listDomainRoutes =
  (catalog: ServedCatalog) =>
  async (req: ListDomainRoutesRequest): Promise<Buffer> =>
    domainAnswer(catalog, (a) => a.listDomainRoutes, req.domainKey);
