// An Idempotency-Key claim as the ledger's RPCs take it, validated into the command its stores apply,
// and the check of a result stored as the key's answer.
import type { ClaimCommand } from "./ports";
import type { StoredResult } from "./types";
import { invalidField } from "./errors";
import { durationOrDefault, optionalText, requireId, requireIdempotencyKey } from "./validate";
import { DEFAULT_LEASE_MS, IDEMPOTENCY_RETENTION_MS } from "./ledger-limits";

/** An Idempotency-Key claim as ClaimIdempotencyKey asks for it. */
export interface ClaimRequest {
  userId: string;
  key: string;
  requestHash: string;
  leaseMs: number;
  executionId: string;
  capabilityKey: string;
}

/** A claim request, validated, as the store takes it. */
export function claimCommand(req: ClaimRequest, at: Date): ClaimCommand {
  return {
    userId: requireId("user_id", req.userId),
    key: requireIdempotencyKey("idempotency_key", req.key),
    requestHash: requireId("request_hash", req.requestHash),
    executionId: requireId("execution_id", req.executionId),
    capabilityKey: optionalText("capability_key", req.capabilityKey),
    leaseMs: durationOrDefault("lease_ms", req.leaseMs, DEFAULT_LEASE_MS, 1_000, 15 * 60_000),
    retentionMs: IDEMPOTENCY_RETENTION_MS,
    now: at,
  };
}

export function requireHttpStatus(result: StoredResult): void {
  if (!Number.isInteger(result.httpStatus) || result.httpStatus < 100 || result.httpStatus > 599) {
    throw invalidField(
      "result.http_status",
      "result.http_status must be an HTTP status (100..599).",
      "Send the status of the response to replay.",
    );
  }
}
