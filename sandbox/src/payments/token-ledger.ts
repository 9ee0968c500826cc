// The sandbox's stand-in for the token contract: balances and consumed EIP-3009 nonces, in memory.
// x402 and MPP settle against the same ledger, as both would hit the same USDC contract on chain.
import { getAddress, keccak256, toBytes, type Address, type Hex } from "viem";

/** Why a transfer cannot happen. */
export type TransferRefusal = "nonce_already_used" | "insufficient_funds";

export interface Transfer {
  from: Address;
  to: Address;
  value: bigint;
  nonce: Hex;
}

export class TokenLedger {
  private readonly balances = new Map<Address, bigint>();
  private readonly usedNonces = new Set<string>();
  private txCount = 0;

  /** @param defaultBalance balance (atomic units) of an address never seen before, so any test wallet can pay. */
  constructor(private readonly defaultBalance: bigint) {}

  balanceOf(address: string): bigint {
    return this.balances.get(getAddress(address)) ?? this.defaultBalance;
  }

  setBalance(address: string, atomic: bigint): void {
    this.balances.set(getAddress(address), atomic);
  }

  /** Like the token's `authorizationState(from, nonce)`: true once the nonce was consumed. */
  isNonceUsed(from: string, nonce: Hex): boolean {
    return this.usedNonces.has(nonceKey(from, nonce));
  }

  /** The reason a transfer would fail now, or undefined when it would succeed. */
  check(t: Transfer): TransferRefusal | undefined {
    if (this.isNonceUsed(t.from, t.nonce)) return "nonce_already_used";
    if (this.balanceOf(t.from) < t.value) return "insufficient_funds";
    return undefined;
  }

  /** Consumes the nonce and moves the value atomically; returns a transaction hash. */
  transfer(t: Transfer): { ok: true; transaction: Hex } | { ok: false; reason: TransferRefusal } {
    const refusal = this.check(t);
    if (refusal) return { ok: false, reason: refusal };
    this.usedNonces.add(nonceKey(t.from, t.nonce));
    this.balances.set(getAddress(t.from), this.balanceOf(t.from) - t.value);
    this.balances.set(getAddress(t.to), this.balanceOf(t.to) + t.value);
    this.txCount += 1;
    return { ok: true, transaction: keccak256(toBytes(`sandbox-tx:${this.txCount}:${t.from}:${t.nonce}`)) };
  }
}

function nonceKey(from: string, nonce: Hex): string {
  return `${getAddress(from)}:${nonce.toLowerCase()}`;
}
