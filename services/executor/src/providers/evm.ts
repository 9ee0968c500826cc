// What the chain-data adapters (Alchemy, Etherscan) share: the EVM networks of the chain contracts, and
// the normalized form of a node's JSON-RPC answers (hex quantities to decimal strings, a transaction and
// its receipt to one record), so both vendors answer in the same shape.
import type { CapabilityInput } from "../domain/provider-port";
import { InputReader, inputRefusal } from "./input";
import { isRecord, stringField } from "./vendor-error";

const EVM_NETWORKS = ["ethereum", "base", "arbitrum", "optimism", "polygon"] as const;
export type EvmNetwork = (typeof EVM_NETWORKS)[number];

export const CHAIN_IDS: Readonly<Record<EvmNetwork, number>> = { ethereum: 1, base: 8453, arbitrum: 42161, optimism: 10, polygon: 137 };
const NATIVE_SYMBOL: Readonly<Record<EvmNetwork, string>> = {
  ethereum: "ETH",
  base: "ETH",
  arbitrum: "ETH",
  optimism: "ETH",
  polygon: "POL",
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** The input's `network` (default ethereum), refused by name when it is not one we serve. */
export function networkOf(providerKey: string, input: CapabilityInput): EvmNetwork {
  const network = new InputReader(providerKey, input).string("network") ?? "ethereum";
  if (!(EVM_NETWORKS as readonly string[]).includes(network))
    throw inputRefusal(providerKey, `\`network\` must be one of ${EVM_NETWORKS.join(", ")}`, "network");
  return network as EvmNetwork;
}

/** A 0x-prefixed 20-byte address field, lower-cased. */
export function addressField(providerKey: string, input: CapabilityInput, field: string, required: true): string;
export function addressField(providerKey: string, input: CapabilityInput, field: string, required: false): string | undefined;
export function addressField(providerKey: string, input: CapabilityInput, field: string, required: boolean): string | undefined {
  const read = new InputReader(providerKey, input);
  const value = required ? read.string(field, true) : read.string(field);
  if (value === undefined) return undefined;
  if (!ADDRESS.test(value.trim())) throw inputRefusal(providerKey, `\`${field}\` must be a 0x-prefixed 20-byte hex address`, field);
  return value.trim().toLowerCase();
}

/** The input's 0x-prefixed 32-byte transaction `hash`, lower-cased. */
export function hashField(providerKey: string, input: CapabilityInput): string {
  const value = new InputReader(providerKey, input).string("hash", true).trim();
  if (!HASH.test(value)) throw inputRefusal(providerKey, "`hash` must be a 0x-prefixed 32-byte hex transaction hash", "hash");
  return value.toLowerCase();
}

/** A JSON-RPC hex quantity as a bigint, or undefined when it is not one. */
export function quantity(value: unknown): bigint | undefined {
  return typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value) ? BigInt(value) : undefined;
}

/** `1234500000000000000` wei with 18 decimals → `1.2345`. */
export function formatUnits(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

export function nativeSymbol(network: EvmNetwork): string {
  return NATIVE_SYMBOL[network];
}

const num = (value: unknown) => {
  const q = quantity(value);
  return q === undefined ? null : Number(q);
};

/**
 * One transaction record from a node's transaction and receipt objects (either may be absent: a pending
 * transaction has no receipt; a receipt-only lookup has no value or nonce).
 */
export function transactionRecord(
  hash: string,
  network: EvmNetwork,
  tx: Record<string, unknown> | undefined,
  receipt: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const value = quantity(tx?.value);
  const gasUsed = quantity(receipt?.gasUsed);
  const gasPrice = quantity(receipt?.effectiveGasPrice) ?? quantity(tx?.gasPrice);
  const fee = gasUsed !== undefined && gasPrice !== undefined ? gasUsed * gasPrice : undefined;
  const status = !receipt ? "pending" : quantity(receipt.status) === 1n ? "success" : "failed";
  const logs = receipt && Array.isArray(receipt.logs) ? receipt.logs.filter(isRecord) : [];
  return {
    hash,
    network,
    status,
    blockNumber: num(receipt?.blockNumber ?? tx?.blockNumber),
    from: stringField(receipt, "from") ?? stringField(tx, "from") ?? null,
    to: stringField(receipt, "to") ?? stringField(tx, "to") ?? null,
    contractAddress: stringField(receipt, "contractAddress") ?? null,
    nonce: num(tx?.nonce),
    valueWei: value === undefined ? null : value.toString(),
    value: value === undefined ? null : formatUnits(value, 18),
    gasUsed: gasUsed === undefined ? null : gasUsed.toString(),
    effectiveGasPriceWei: gasPrice === undefined ? null : gasPrice.toString(),
    feeWei: fee === undefined ? null : fee.toString(),
    fee: fee === undefined ? null : formatUnits(fee, 18),
    nativeSymbol: nativeSymbol(network),
    logs: logs.map((log) => ({
      address: stringField(log, "address") ?? null,
      topics: Array.isArray(log.topics) ? log.topics.filter((t) => typeof t === "string") : [],
      data: stringField(log, "data") ?? "0x",
      logIndex: num(log.logIndex),
    })),
  };
}
