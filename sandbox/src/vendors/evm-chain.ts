// A small fixed EVM ledger the chain-data stand-ins (Alchemy, Etherscan) answer from, in the node's own
// JSON-RPC shapes (hex quantities, lower-case addresses), so both vendors agree on the same facts.

export type EvmNetwork = "ethereum" | "base" | "arbitrum" | "optimism" | "polygon";

export const CHAIN_IDS: Readonly<Record<EvmNetwork, number>> = { ethereum: 1, base: 8453, arbitrum: 42161, optimism: 10, polygon: 137 };

const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;

export const WALLET = "0xd8da6bf26964af9d7eed9e10e8d5f3d1b2c4a001";
export const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

/** Native balances in wei per network; an unknown address holds 0. */
const NATIVE: Readonly<Record<string, bigint>> = { [WALLET]: 1_234_500_000_000_000_000n };
/** ERC-20 balances in base units: token → holder → amount. */
const TOKENS: Readonly<Record<string, Readonly<Record<string, bigint>>>> = { [USDC]: { [WALLET]: 2_500_750_000n } };
export const TOKEN_METADATA: Readonly<Record<string, { name: string; symbol: string; decimals: number; logo: string | null }>> = {
  [USDC]: { name: "USD Coin", symbol: "USDC", decimals: 6, logo: null },
};

export function nativeBalance(address: string): string {
  return hex(NATIVE[address.toLowerCase()] ?? 0n);
}

export function tokenBalance(token: string, holder: string): string {
  return `0x${(TOKENS[token.toLowerCase()]?.[holder.toLowerCase()] ?? 0n).toString(16).padStart(64, "0")}`;
}

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const pad = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;

interface FixtureTx {
  tx: Record<string, unknown>;
  /** Absent: still pending (no receipt yet). */
  receipt?: Record<string, unknown>;
}

const BLOCK = 21_500_000;
const BLOCK_HASH = "0x5d1f4a3b2c1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a";
const RECIPIENT = "0x71c7656ec7ab88b098defb751b7401b5f6d8976f";

function fixture(hash: string, opts: { value: bigint; to: string; status?: 0 | 1; logs?: boolean; index: number }): FixtureTx {
  const gasPrice = 12_000_000_000n;
  const gasUsed = opts.logs ? 51_234n : 21_000n;
  const tx = {
    hash,
    blockHash: opts.status === undefined ? null : BLOCK_HASH,
    blockNumber: opts.status === undefined ? null : hex(BLOCK),
    transactionIndex: opts.status === undefined ? null : hex(opts.index),
    from: WALLET,
    to: opts.to,
    value: hex(opts.value),
    gas: hex(90_000),
    gasPrice: hex(gasPrice),
    nonce: hex(41 + opts.index),
    input: opts.logs ? `0xa9059cbb${pad(RECIPIENT).slice(2)}${5_000_000n.toString(16).padStart(64, "0")}` : "0x",
    type: "0x2",
    chainId: "0x1",
  };
  if (opts.status === undefined) return { tx };
  const receipt = {
    transactionHash: hash,
    transactionIndex: hex(opts.index),
    blockHash: BLOCK_HASH,
    blockNumber: hex(BLOCK),
    from: WALLET,
    to: opts.to,
    cumulativeGasUsed: hex(gasUsed * 3n),
    gasUsed: hex(gasUsed),
    effectiveGasPrice: hex(gasPrice),
    contractAddress: null,
    status: hex(opts.status),
    type: "0x2",
    logsBloom: `0x${"0".repeat(512)}`,
    logs: opts.logs
      ? [
          {
            address: USDC,
            topics: [TRANSFER_TOPIC, pad(WALLET), pad(RECIPIENT)],
            data: `0x${5_000_000n.toString(16).padStart(64, "0")}`,
            blockNumber: hex(BLOCK),
            transactionHash: hash,
            transactionIndex: hex(opts.index),
            blockHash: BLOCK_HASH,
            logIndex: "0x0",
            removed: false,
          },
        ]
      : [],
  };
  return { tx, receipt };
}

/** Known transactions: a plain ETH transfer, a USDC transfer (with its log), a failed call, a pending one. */
export const TX_TRANSFER = "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b";
export const TX_TOKEN = "0x2b8e1a3c6f4d5e7a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a";
export const TX_FAILED = "0x9f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b";
export const TX_PENDING = "0x1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b";

const TXS: Readonly<Record<string, FixtureTx>> = {
  [TX_TRANSFER]: fixture(TX_TRANSFER, { value: 250_000_000_000_000_000n, to: RECIPIENT, status: 1, index: 0 }),
  [TX_TOKEN]: fixture(TX_TOKEN, { value: 0n, to: USDC, status: 1, logs: true, index: 1 }),
  [TX_FAILED]: fixture(TX_FAILED, { value: 0n, to: USDC, status: 0, index: 2 }),
  [TX_PENDING]: fixture(TX_PENDING, { value: 10_000_000_000_000_000n, to: RECIPIENT, index: 3 }),
};

export function transaction(hash: string): Record<string, unknown> | null {
  return TXS[hash.toLowerCase()]?.tx ?? null;
}

export function receipt(hash: string): Record<string, unknown> | null {
  return TXS[hash.toLowerCase()]?.receipt ?? null;
}

export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const HASH = /^0x[0-9a-fA-F]{64}$/;
