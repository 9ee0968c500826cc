// The fingerprint of an execute request that an Idempotency-Key is bound to: sha256 of the
// canonical JSON (keys sorted at every depth) of {domainKey, capabilityId, body}.
import { createHash } from "node:crypto";
import { canonicalJson } from "@agentic/platform/core";

/** Hex sha256 of the canonical request. */
export function requestHash(domainKey: string, capabilityId: string, body: unknown): string {
  return createHash("sha256").update(canonicalJson({ domainKey, capabilityId, body })).digest("hex");
}
