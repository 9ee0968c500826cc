// Signs EIP-3009 `TransferWithAuthorization` (EIP-712) with the service wallet: the proof both x402
// `exact` and MPP `evm` authorization credentials carry. The wire form keeps every number a string.
import type { Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { StablecoinAsset } from "./stablecoins";

const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The six authorization values as they travel on the wire. */
export interface WireAuthorization {
  from: Hex;
  to: Hex;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

export interface AuthorizationTerms {
  to: Hex;
  valueAtomic: bigint;
  /** Unix seconds. */
  validAfter: number;
  /** Unix seconds. */
  validBefore: number;
  nonce: Hex;
}

/** Signs the authorization under the token's own EIP-712 domain; returns it with the signature. */
export async function signTransferAuthorization(
  account: PrivateKeyAccount,
  asset: StablecoinAsset,
  terms: AuthorizationTerms,
): Promise<{ authorization: WireAuthorization; signature: Hex }> {
  const signature = await account.signTypedData({
    domain: { name: asset.eip712Name, version: asset.eip712Version, chainId: asset.chainId, verifyingContract: asset.address },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: {
      from: account.address,
      to: terms.to,
      value: terms.valueAtomic,
      validAfter: BigInt(terms.validAfter),
      validBefore: BigInt(terms.validBefore),
      nonce: terms.nonce,
    },
  });
  return {
    authorization: {
      from: account.address,
      to: terms.to,
      value: terms.valueAtomic.toString(),
      validAfter: String(terms.validAfter),
      validBefore: String(terms.validBefore),
      nonce: terms.nonce,
    },
    signature,
  };
}
