// The fingerprint of an execute request that an Idempotency-Key is bound to: sha256 of the
// canonical JSON (keys sorted at every depth) of {domainKey, capabilityId, body}.
import { createHash } from "node:crypto";

/** JSON with object keys sorted, so equal values serialize identically whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Hex sha256 of the canonical request. */
export function requestHash(domainKey: string, capabilityId: string, body: unknown): string {
  return createHash("sha256").update(canonicalJson({ domainKey, capabilityId, body })).digest("hex");
}
