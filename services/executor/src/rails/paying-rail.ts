// What the paying rails (x402, MPP) share around their protocols: their options, the price ceiling
// of one call, the refusal to pay above it, and the record of a payment made. The protocols (offers
// and authorizations vs. challenges and credentials) stay in x402.ts and mpp.ts.
import type { PrivateKeyAccount } from "viem/accounts";
import {
  NOT_SENT_CODES,
  RailError,
  type PaymentSettlement,
  type RailPayment,
  type RailResponse,
  type SendOptions,
} from "../domain/rail-port";
import { atomicToMicroUsd, microUsdToAtomic, type StablecoinAsset } from "./stablecoins";

/**
 * Longest life of an authorization we sign, whatever the seller asks (x402 maxTimeoutSeconds, an MPP
 * challenge's expires): a credential that leaks or is never settled stops being collectable after it.
 */
export const MAX_AUTHORIZATION_VALIDITY_S = 3600;

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

/** A payment we signed and sent to the seller. */
export interface PaymentMade {
  rail: "x402" | "mpp";
  amount: bigint;
  asset: StablecoinAsset;
  payTo: string;
  payer: string;
  /** What the seller did with it (see RailPayment.settlement). */
  settlement: PaymentSettlement;
  /** The seller's settlement reference, when it gave one. */
  reference?: string;
}

/** The record of a payment, as rails report it. */
export function paymentRecord(p: PaymentMade): RailPayment {
  return {
    rail: p.rail,
    amountAtomic: p.amount.toString(),
    amountMicroUsd: atomicToMicroUsd(p.amount, p.asset.decimals),
    asset: p.asset.address,
    network: p.asset.network,
    payTo: p.payTo,
    payer: p.payer,
    ...(p.reference !== undefined ? { reference: p.reference } : {}),
    settlement: p.settlement,
  };
}

/** The vendor's paid answer, with the record of the payment made for it. */
export function withPayment(res: RailResponse, p: PaymentMade): RailResponse {
  return { ...res, payment: paymentRecord(p) };
}

/**
 * What the paid exchange threw, recording that the credential had left with the request (`payment`,
 * settlement per the answer if one came, else unknown), unless the connection failed before anything
 * was sent. Such an error forbids paying another seller for the same execution.
 */
export function paidExchangeFailed(
  err: unknown,
  payment: (settlement: PaymentSettlement, reference?: string) => RailPayment,
  settlementOf: (status: number, headers: Record<string, string>) => { settlement: PaymentSettlement; reference?: string } | undefined,
): unknown {
  if (!(err instanceof RailError)) return err;
  const code = typeof err.details?.code === "string" ? err.details.code : "";
  if (err.kind === "network" && NOT_SENT_CODES.has(code)) return err;
  const answered = err.opts.response
    ? settlementOf(err.opts.response.status, err.opts.response.headers)
    : { settlement: "unknown" as const };
  // An error answer without a settlement proof: the seller did not collect (it settles only what it served).
  if (!answered) return err;
  return err.withPayment(payment(answered.settlement, answered.reference));
}
