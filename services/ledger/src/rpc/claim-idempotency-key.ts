// ClaimIdempotencyKey: claimed (run the request as execution_id), in_progress (another request runs
// it; `started` once it placed a hold, after which it never runs again), completed (replay the
// stored result) or conflict (same key, other request).
import type { UnaryHandler } from "@agentic/platform";
import type { ClaimIdempotencyKeyRequest, ClaimIdempotencyKeyResponse } from "@agentic/proto/ledger/v1";
import type { ClaimRequest, Ledger } from "../domain/ledger";
import type { ClaimOutcome } from "../domain/types";

export function claimIdempotencyKey(ledger: Ledger): UnaryHandler<ClaimIdempotencyKeyRequest, ClaimIdempotencyKeyResponse> {
  return async (req) => claimResponse(await ledger.claimIdempotencyKey(claimRequest(req)));
}

/** A claim off the wire (an absent one is empty, and refused by validation). */
export function claimRequest(req: ClaimIdempotencyKeyRequest | undefined): ClaimRequest {
  return {
    userId: req?.userId ?? "",
    key: req?.idempotencyKey ?? "",
    requestHash: req?.requestHash ?? "",
    leaseMs: req?.leaseMs ?? 0,
    executionId: req?.executionId ?? "",
    capabilityKey: req?.capabilityKey ?? "",
  };
}

/** A claim's outcome on the wire. */
export function claimResponse(outcome: ClaimOutcome): ClaimIdempotencyKeyResponse {
  switch (outcome.state) {
    case "completed":
      return { state: outcome.state, executionId: outcome.executionId, result: outcome.result, started: true };
    case "in_progress":
      return { state: outcome.state, executionId: outcome.executionId, leaseExpiresAt: outcome.leaseExpiresAt, started: outcome.started };
    case "claimed":
      return { state: outcome.state, executionId: outcome.executionId, started: false };
    default:
      return { state: outcome.state, executionId: "", started: false };
  }
}
