// What the paying rails (x402, MPP) share around their protocols: their options, the price ceiling
// of one call, the refusal to pay above it, and the record of a payment made. The protocols (offers
// and authorizations vs. challenges and credentials) stay in x402.ts and mpp.ts.
import type { PrivateKeyAccount } from "viem/accounts";
import { RailError, type RailPayment, type RailResponse, type SendOptions } from "./rail";
import { microUsdToAtomic, type StablecoinAsset } from "./stablecoins";

export interface PayingRailOptions {
  /** The service wallet that signs payments. */
  account: PrivateKeyAccount;
  /** Tokens (and so networks) we pay with. */
  assets: readonly StablecoinAsset[];
  /** Ceiling per call in micro-USD, whatever the caller allows. */
  maxPriceMicroUsd: number;
  nowMs?: () => number;
}

/** Most one call may pay, in micro-USD: the caller's limit (the route's price) or the rail's, whichever is lower. */
export function callCeilingMicroUsd(send: SendOptions, rail: PayingRailOptions): number {
  return Math.min(send.maxPriceMicroUsd ?? Infinity, rail.maxPriceMicroUsd);
}

/** True when `amount` atomic units of `asset` fit under a micro-USD ceiling. */
export function withinCeiling(amount: bigint, asset: StablecoinAsset, ceilingMicroUsd: number): boolean {
  return amount <= microUsdToAtomic(ceilingMicroUsd, asset.decimals);
}

/** The refusal to pay `amount` of `asset` above the ceiling; `protocol` names the rail in the message. */
export function priceAboveCeiling(protocol: "x402" | "MPP", amount: bigint, asset: StablecoinAsset, ceilingMicroUsd: number): RailError {
  return new RailError("payment_rejected", "price_above_ceiling", `the ${protocol} price is above what this call may pay`, {
    amountAtomic: amount.toString(),
    ceilingAtomic: microUsdToAtomic(ceilingMicroUsd, asset.decimals).toString(),
  });
}

/** A payment we signed and the seller took. */
export interface PaymentMade {
  rail: "x402" | "mpp";
  amount: bigint;
  asset: StablecoinAsset;
  payTo: string;
  payer: string;
  /** The seller confirmed settlement (x402 settlement header, MPP receipt). */
  settled: boolean;
  /** The seller's settlement reference, when it gave one. */
  reference?: string;
}

/** The vendor's paid answer, with the record of the payment made for it. */
export function withPayment(res: RailResponse, p: PaymentMade): RailResponse {
  const payment: RailPayment = {
    rail: p.rail,
    amountAtomic: p.amount.toString(),
    asset: p.asset.address,
    network: p.asset.network,
    payTo: p.payTo,
    payer: p.payer,
    ...(p.reference !== undefined ? { reference: p.reference } : {}),
    settlement: p.settled ? "settled" : "unconfirmed",
  };
  return { ...res, payment };
}
