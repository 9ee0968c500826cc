// Canonical JSON: object keys sorted (by UTF-16 code units) at every depth, undefined members left
// out, so equal values serialize identically whatever their key order. What idempotency fingerprints
// and content versions hash; the serializer is fast-json-stable-stringify's.
import stableStringify from "fast-json-stable-stringify";

export function canonicalJson(value: unknown): string {
  return stableStringify(value) ?? "null";
}
