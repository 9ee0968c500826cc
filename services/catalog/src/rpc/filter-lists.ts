// FilterCapabilities and FilterRoutes: one page of a list across domains (compiled/filtered-lists.ts).
import type { FilterCapabilitiesRequest, FilterRoutesRequest } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "../compiled";
import { checkedPage } from "./page";

export const filterCapabilities =
  (catalog: ServedCatalog) =>
  async (req: FilterCapabilitiesRequest): Promise<Buffer> =>
    catalog.answers.filterCapabilities(req.filter, ...checkedPage(req));

export const filterRoutes =
  (catalog: ServedCatalog) =>
  async (req: FilterRoutesRequest): Promise<Buffer> =>
    catalog.answers.filterRoutes(req.filter, ...checkedPage(req));
