// ListCapabilityRoutes: the routes of one capability.
import type { ListCapabilityRoutesRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { capabilityAnswer } from "./answers";

export const listCapabilityRoutes =
  (catalog: ServedCatalog) =>
  async (req: ListCapabilityRoutesRequest): Promise<Buffer> =>
    capabilityAnswer(catalog, (a) => a.listCapabilityRoutes, req);
