// Reads an x402 v2 PaymentPayload of the `exact` EVM scheme (EIP-3009 transferWithAuthorization): the
// echoed requirements (`accepted`) and the authorization whose (payer, nonce) names the payment. The
// signature itself is checked by the facilitator, against the token's real EIP-712 domain.
import { EVM_ADDRESS } from "./top-up-terms";

export interface Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface ExactPayment {
  /** The whole payload as sent (what the facilitator gets). */
  payload: Record<string, unknown>;
  accepted: unknown;
  authorization: Authorization;
}

const DECIMAL = /^\d{1,78}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** The payment, or the problem that makes it unreadable. */
export function readExactPayment(json: string): ExactPayment | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { problem: "the payment is not JSON" };
  }
  if (!isRecord(parsed)) return { problem: "the payment must be an object" };
  if (parsed.x402Version !== 2) return { problem: "x402Version must be 2" };
  if (!isRecord(parsed.accepted)) return { problem: "the payment must echo the accepted requirements" };
  const inner = parsed.payload;
  if (!isRecord(inner) || typeof inner.signature !== "string" || !isRecord(inner.authorization))
    return { problem: "payload needs signature and authorization (exact EVM, EIP-3009)" };
  const a = inner.authorization;
  for (const key of ["from", "to"] as const)
    if (typeof a[key] !== "string" || !EVM_ADDRESS.test(a[key] as string)) return { problem: `authorization.${key} must be an address` };
  for (const key of ["value", "validAfter", "validBefore"] as const)
    if (typeof a[key] !== "string" || !DECIMAL.test(a[key] as string)) return { problem: `authorization.${key} must be a decimal string` };
  if (typeof a.nonce !== "string" || !BYTES32.test(a.nonce)) return { problem: "authorization.nonce must be a 0x-prefixed bytes32" };
  return { payload: parsed, accepted: parsed.accepted, authorization: a as unknown as Authorization };
}

/** Deep equality of two JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  const other = Object.keys(b).filter((k) => b[k] !== undefined);
  return keys.length === other.length && keys.every((k) => sameJson(a[k], b[k]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
