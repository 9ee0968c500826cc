// ListUsage: one page of a user's usage items, newest first; limit 0 means 20, else 1..100; filters by
// time range, agent, capability and kind; next_cursor continues after the page.
import type { UnaryHandler } from "@agentic/platform";
import type { ListUsageRequest, ListUsageResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toUsageItemMessage } from "./convert";

export function listUsage(ledger: Ledger): UnaryHandler<ListUsageRequest, ListUsageResponse> {
  return async (req) => {
    const page = await ledger.listUsage(req.userId, req.limit, req);
    return { items: page.items.map(toUsageItemMessage), nextCursor: page.nextCursor };
  };
}
