// The page of a list RPC (FilterCapabilities, FilterRoutes, ListCapabilityEntries): offset and limit, checked.
import { invalidArgument } from "@agentic/platform";

/** Most items one page holds (as the REST lists' `limit`). */
export const MAX_PAGE_LIMIT = 200;

/** [offset, limit] of a request; INVALID_ARGUMENT (INVALID_INPUT) when either is out of range. */
export function checkedPage({ offset, limit }: { offset: number; limit: number }): [number, number] {
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw invalidArgument("INVALID_INPUT", "offset must be 0 or more", "Ask from offset 0, or from the total of the pages already read.");
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw invalidArgument("INVALID_INPUT", `limit must be 1..${MAX_PAGE_LIMIT}`, `Ask for at most ${MAX_PAGE_LIMIT} items a page.`);
  return [offset, limit];
}
