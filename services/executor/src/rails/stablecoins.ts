// The USD stablecoins the paying rails may sign for: address and EIP-712 domain per network (values
// of `@x402/evm` defaultAssets). A rail only ever signs for a token listed here, with these exact
// domain values, so a seller cannot make us sign for an unknown asset or under a forged token name.
import type { Address } from "viem";

export interface StablecoinAsset {
  /** CAIP-2 network, e.g. `eip155:8453`. */
  network: string;
  chainId: number;
  address: Address;
  /** The token's own EIP-712 domain name and version (what `transferWithAuthorization` verifies). */
  eip712Name: string;
  eip712Version: string;
  decimals: number;
}

/** USDC (EIP-3009 capable) per CAIP-2 network. Note the mainnet/testnet name difference. */
export const USDC: Readonly<Record<string, StablecoinAsset>> = {
  "eip155:8453": {
    network: "eip155:8453",
    chainId: 8453,
    address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    eip712Name: "USD Coin",
    eip712Version: "2",
    decimals: 6,
  },
  "eip155:84532": {
    network: "eip155:84532",
    chainId: 84532,
    address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    eip712Name: "USDC",
    eip712Version: "2",
    decimals: 6,
  },
  "eip155:137": {
    network: "eip155:137",
    chainId: 137,
    address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    eip712Name: "USD Coin",
    eip712Version: "2",
    decimals: 6,
  },
  "eip155:42161": {
    network: "eip155:42161",
    chainId: 42161,
    address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    eip712Name: "USD Coin",
    eip712Version: "2",
    decimals: 6,
  },
};

/** The USDC assets of the given CAIP-2 networks; throws on a network without a known USDC. */
export function usdcOn(networks: readonly string[]): StablecoinAsset[] {
  return networks.map((n) => {
    const asset = USDC[n];
    if (!asset) throw new Error(`no known USDC on network "${n}"; known: ${Object.keys(USDC).join(", ")}`);
    return asset;
  });
}

/** x402 v1 network names → chain ids (subset of `@x402/evm` EVM_NETWORK_CHAIN_ID_MAP). */
const V1_NETWORKS: Readonly<Record<string, number>> = {
  base: 8453,
  "base-sepolia": 84532,
  polygon: 137,
  "arbitrum-one": 42161,
  arbitrum: 42161,
};

/** Chain id of a CAIP-2 `eip155:<id>` or x402 v1 network name; undefined for anything else. */
export function evmChainId(network: string): number | undefined {
  const caip = /^eip155:(\d+)$/.exec(network);
  return caip ? Number(caip[1]) : V1_NETWORKS[network];
}

/** The allowed asset for a chain and token address (compared case-insensitively). */
export function findAsset(assets: readonly StablecoinAsset[], chainId: number, address: string): StablecoinAsset | undefined {
  return assets.find((a) => a.chainId === chainId && a.address.toLowerCase() === address.toLowerCase());
}

/** A micro-USD ceiling in atomic units of a USD stablecoin with `decimals` (6 → same number). */
export function microUsdToAtomic(microUsd: number, decimals: number): bigint {
  const micro = BigInt(Math.floor(microUsd));
  return decimals >= 6 ? micro * 10n ** BigInt(decimals - 6) : micro / 10n ** BigInt(6 - decimals);
}

/** Atomic units of a USD stablecoin with `decimals` as micro-USD, rounded up (a loss or a payment is never under-stated). */
export function atomicToMicroUsd(atomic: bigint, decimals: number): number {
  if (decimals <= 6) return Number(atomic * 10n ** BigInt(6 - decimals));
  const unit = 10n ** BigInt(decimals - 6);
  return Number((atomic + unit - 1n) / unit);
}
