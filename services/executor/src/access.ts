// Who may call each ExecutorService RPC, checked on every call against the caller's verified
// identity (packages/platform/src/grpc/access.ts); an RPC missing here is refused to everyone.
// Execute spends a user's credits, so only the edge, which authenticated that user, may ask for it.
import type { AccessTable } from "@agentic/platform";

export const EXECUTOR_ACCESS: AccessTable = {
  Execute: ["gateway"],
  // A quote reserves a user's credits: the same edge only.
  Quote: ["gateway"],
};
