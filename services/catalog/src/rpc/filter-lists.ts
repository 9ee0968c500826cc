// FilterCapabilities and FilterRoutes: one page of a list across domains (compiled/filtered-lists.ts).
import type { FilterCapabilitiesRequest, FilterRoutesRequest } from "@agentic/proto/catalog/v1";
import { invalidArgument } from "@agentic/platform";
import type { ServedCatalog } from "../compiled";

/** Most items one page holds (as the REST lists' `limit`). */
export const MAX_PAGE_LIMIT = 200;

export const filterCapabilities =
  (catalog: ServedCatalog) =>
  async (req: FilterCapabilitiesRequest): Promise<Buffer> =>
    catalog.answers.filterCapabilities(req.filter, ...checkedPage(req));

export const filterRoutes =
  (catalog: ServedCatalog) =>
  async (req: FilterRoutesRequest): Promise<Buffer> =>
    catalog.answers.filterRoutes(req.filter, ...checkedPage(req));

function checkedPage({ offset, limit }: { offset: number; limit: number }): [number, number] {
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw invalidArgument("INVALID_INPUT", "offset must be 0 or more", "Ask from offset 0, or from the total of the pages already read.");
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw invalidArgument("INVALID_INPUT", `limit must be 1..${MAX_PAGE_LIMIT}`, `Ask for at most ${MAX_PAGE_LIMIT} items a page.`);
  return [offset, limit];
}
