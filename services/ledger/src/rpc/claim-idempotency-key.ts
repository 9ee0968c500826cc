// ClaimIdempotencyKey: claimed (run the request), in_progress (another request runs it; retry after
// lease_expires_at), completed (replay the stored result) or conflict (same key, other request).
import type { UnaryHandler } from "@agentic/platform";
import type { ClaimIdempotencyKeyRequest, ClaimIdempotencyKeyResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { withLedgerErrors } from "./errors";

export function claimIdempotencyKey(ledger: Ledger): UnaryHandler<ClaimIdempotencyKeyRequest, ClaimIdempotencyKeyResponse> {
  return withLedgerErrors(async (req) => {
    const outcome = await ledger.claimIdempotencyKey({ userId: req.userId, key: req.idempotencyKey, requestHash: req.requestHash, leaseMs: req.leaseMs });
    switch (outcome.state) {
      case "completed":
        return { state: outcome.state, result: outcome.result };
      case "in_progress":
        return { state: outcome.state, leaseExpiresAt: outcome.leaseExpiresAt };
      default:
        return { state: outcome.state };
    }
  });
}
