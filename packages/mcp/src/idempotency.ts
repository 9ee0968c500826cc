// The Idempotency-Key an execute tool sends when the agent gives none. LLMs retry tool calls, and a
// model asked for a key mints a fresh one on every retry, so the key is derived from the call itself:
// the caller's API key (hashed), the capability and the canonical arguments. The same call again
// carries the same key, and the API replays the stored result instead of running and charging it
// twice. There is no time component: a time bucket would give a retry that straddles the bucket's
// edge a new key, and charge it. The key lives as long as the ledger keeps the execution record
// (24 h from the first call); after that an identical call runs again.
import { createHash } from "node:crypto";
import stableStringify from "fast-json-stable-stringify";

/** How long the API keeps an Idempotency-Key's result (the ledger's retention of execution records). */
export const DERIVED_KEY_WINDOW = "24 h";

/** JSON with object keys sorted at every depth, so equal values give equal text whatever the key order (as the executor hashes a request). */
export function canonicalJson(value: unknown): string {
  return stableStringify(value) ?? "null";
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A digest of the API key: the key itself never enters a derived Idempotency-Key. */
export function apiKeyFingerprint(apiKey: string): string {
  return sha256(`agentic-api-key\u0000${apiKey}`);
}

export interface DerivationInput {
  /** apiKeyFingerprint(apiKey) of the caller. */
  keyFingerprint: string;
  domain: string;
  capabilityId: string;
  /** The execute body as it will be sent (capability fields and routing controls). */
  body: Record<string, unknown>;
}

/**
 * `mcp1_` and the hex sha256 of (key fingerprint, capability, canonical body): 69 printable ASCII
 * characters. Keyed by the capability rather than the tool's name, so an identical call made once
 * through `geo_time_current_execute` and once through the generic `execute` tool is one call.
 */
export function deriveIdempotencyKey(input: DerivationInput): string {
  const { keyFingerprint, domain, capabilityId, body } = input;
  return `mcp1_${sha256(canonicalJson({ key: keyFingerprint, domain, capabilityId, body }))}`;
}
