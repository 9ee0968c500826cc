// Verifies an EIP-3009 TransferWithAuthorization signature against the token's EIP-712 domain
// (viem's standalone verifyTypedData: ecrecover for EOAs, fully offline).
import { isAddress, isHex, verifyTypedData, type Address, type Hex } from "viem";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "./assets";

/** The six authorization values as they travel on the wire (all strings). */
export interface WireAuthorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface TokenDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

/** Checks that every field has the type EIP-3009 needs; returns a message for the first bad one. */
export function authorizationShapeProblem(auth: unknown): string | undefined {
  if (typeof auth !== "object" || auth === null) return "authorization must be an object";
  const a = auth as Record<string, unknown>;
  for (const key of ["from", "to"])
    if (typeof a[key] !== "string" || !isAddress(a[key] as string, { strict: false })) return `${key} must be an address`;
  for (const key of ["value", "validAfter", "validBefore"])
    if (typeof a[key] !== "string" || !/^\d+$/.test(a[key] as string)) return `${key} must be a decimal string`;
  if (typeof a.nonce !== "string" || !isHex(a.nonce) || a.nonce.length !== 66) return "nonce must be a 0x-prefixed bytes32";
  return undefined;
}

/** True when `signature` is `auth.from`'s EIP-712 signature of `auth` under `domain`. */
export async function isValidAuthorizationSignature(domain: TokenDomain, auth: WireAuthorization, signature: string): Promise<boolean> {
  if (!isHex(signature)) return false;
  try {
    return await verifyTypedData({
      address: auth.from as Address,
      domain,
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: "TransferWithAuthorization",
      message: {
        from: auth.from as Address,
        to: auth.to as Address,
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
        nonce: auth.nonce as Hex,
      },
      signature: signature as Hex,
    });
  } catch {
    // A malformed signature (wrong length, bad recovery byte) is an invalid signature, not a crash.
    return false;
  }
}
