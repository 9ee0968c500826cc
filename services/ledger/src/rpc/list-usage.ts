// ListUsage: a user's usage items, newest first; limit 0 means 20, else 1..100.
import type { UnaryHandler } from "@agentic/platform";
import type { ListUsageRequest, ListUsageResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toUsageItemMessage } from "./convert";
import { withLedgerErrors } from "./errors";

export function listUsage(ledger: Ledger): UnaryHandler<ListUsageRequest, ListUsageResponse> {
  return withLedgerErrors(async (req) => ({ items: (await ledger.listUsage(req.userId, req.limit)).map(toUsageItemMessage) }));
}
