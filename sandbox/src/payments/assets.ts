// The one token the sandbox's "chain" knows: Base Sepolia USDC, with its real address and EIP-712
// domain, so a production client signs exactly what it would sign for the real token.
import type { Address } from "viem";

/** CAIP-2 id of the sandbox network (x402 v2, MPP `methodDetails.chainId`). */
export const SANDBOX_NETWORK = "eip155:84532";
/** x402 v1 name of the same network. */
export const SANDBOX_NETWORK_V1 = "base-sepolia";
export const SANDBOX_CHAIN_ID = 84532;

/** USDC on Base Sepolia: address, EIP-712 domain name/version, decimals (x402 `@x402/evm` defaults). */
export const SANDBOX_USDC = {
  address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e" as Address,
  name: "USDC",
  version: "2",
  decimals: 6,
} as const;

/** Recipient of x402 payments (derived from keccak256("agentic-sandbox/x402-seller"); no key is used). */
export const X402_PAY_TO: Address = "0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5";
/** Recipient of MPP payments (derived from keccak256("agentic-sandbox/mpp-seller")). */
export const MPP_RECIPIENT: Address = "0xd9F9c48c713F7A01Db0AdD201081B294Ea8908E2";
/** Address the facilitator reports as its signer in `/supported`. */
export const FACILITATOR_SIGNER: Address = "0xC04B2244346892B21B23837927a16D8678153221";

/** Canonical Permit2 address; MPP `evm` requires `permit2Address` in every request even when unused. */
export const PERMIT2_ADDRESS: Address = "0x000000000022D473030F116dDEE9F6B43aC78BA3";

/** x402 v1 network names → EVM chain ids (subset of `@x402/evm` EVM_NETWORK_CHAIN_ID_MAP). */
const V1_CHAIN_IDS: Readonly<Record<string, number>> = {
  base: 8453,
  "base-sepolia": 84532,
  polygon: 137,
  "polygon-amoy": 80002,
  avalanche: 43114,
  "avalanche-fuji": 43113,
  sei: 1329,
};

/** Chain id of a CAIP-2 (`eip155:84532`) or x402 v1 (`base-sepolia`) network, or undefined. */
export function chainIdOf(network: string): number | undefined {
  const caip = /^eip155:(\d+)$/.exec(network);
  if (caip) return Number(caip[1]);
  return V1_CHAIN_IDS[network];
}

/** EIP-3009 `TransferWithAuthorization` typed-data types (field order matters for the hash). */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;
