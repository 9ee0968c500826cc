// The gateway's side of x402 v2 as a seller: the `PAYMENT-REQUIRED` challenge of a 402 (base64 JSON:
// x402Version, error, resource, accepts; the payer's `PAYMENT-SIGNATURE` is read in routes/requests/headers.ts) and the `PAYMENT-RESPONSE` of
// a settled payment. What is offered and what a payment is worth are the ledger's (QuoteTopUp,
// TopUpWithPayment): the gateway only relays, so it can never credit anything by itself.
import type { Request, Response } from "express";
import { fromServiceError } from "@agentic/platform";
import type { LedgerClient } from "@agentic/clients";
import type { TopUpWithPaymentResponse } from "@agentic/proto/ledger/v1";

/** The challenge of a 402, and the receipt of a settled payment (base64 JSON each), as x402 v2 names them. */
export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";

/** Base64 of JSON, the x402 header encoding. */
export function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/** The requirements the ledger offers for `credits`, or undefined when it takes no payments. */
export async function quoteTopUp(ledger: LedgerClient, credits: number): Promise<Record<string, unknown> | undefined> {
  try {
    const { requirementsJson } = await ledger.quoteTopUp({ amountCredits: credits });
    return JSON.parse(requirementsJson) as Record<string, unknown>;
  } catch (err) {
    if (fromServiceError(err).code === "TOP_UP_UNAVAILABLE") return undefined;
    throw err;
  }
}

/** The URL a challenge names as its resource: this very request. */
export function resourceUrl(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
}

/** Sets the PAYMENT-REQUIRED challenge for paying `requirements` to get `req`'s resource. */
export function setChallenge(req: Request, res: Response, requirements: Record<string, unknown>, error: string, description: string): void {
  const challenge = {
    x402Version: 2,
    error,
    resource: { url: resourceUrl(req), description, mimeType: "application/json" },
    accepts: [requirements],
  };
  res.setHeader(PAYMENT_REQUIRED_HEADER, encodeHeader(challenge));
}

/** Sets PAYMENT-RESPONSE from the ledger's settlement (the facilitator's SettleResponse). */
export function setPaymentResponse(res: Response, settlementJson: string): void {
  if (!settlementJson) return;
  try {
    res.setHeader(PAYMENT_RESPONSE_HEADER, encodeHeader(JSON.parse(settlementJson)));
  } catch {
    // A settlement the ledger could not store as JSON is not worth a broken header.
  }
}

/** A payment travels to the facilitator twice (verify, settle), each bounded by the ledger's own timeout. */
const TOP_UP_DEADLINE_MS = 30_000;

/**
 * Pays for credits: the ledger verifies, settles and credits (once per payment). Without
 * `requirements` the payment's own `accepted` terms count, which the ledger checks are its own.
 */
export function topUp(
  ledger: LedgerClient,
  userId: string,
  paymentPayloadJson: string,
  requirements?: Record<string, unknown>,
): Promise<TopUpWithPaymentResponse> {
  return ledger.topUpWithPayment(
    { userId, requirementsJson: requirements ? JSON.stringify(requirements) : "", paymentPayloadJson },
    { deadlineMs: TOP_UP_DEADLINE_MS },
  );
}

/** The credits a payment's echoed requirements are for (atomic units of a 6-decimal token), when whole. */
export function creditsOfPayment(paymentPayloadJson: string): number | undefined {
  const accepted = (JSON.parse(paymentPayloadJson) as { accepted?: { amount?: unknown } }).accepted;
  const amount = typeof accepted?.amount === "string" && /^\d{1,15}$/.test(accepted.amount) ? Number(accepted.amount) : NaN;
  return Number.isSafeInteger(amount) && amount > 0 && amount % 1000 === 0 ? amount / 1000 : undefined;
}

/** The reason a refused payment carries (PAYMENT_INVALID, PAYMENT_FAILED), or undefined for any other error. */
export function refusedPayment(err: unknown): { reason: string; settlement?: string } | undefined {
  const remote = fromServiceError(err);
  if (remote.code !== "PAYMENT_INVALID" && remote.code !== "PAYMENT_FAILED") return undefined;
  const reason = typeof remote.details?.reason === "string" ? remote.details.reason : remote.code.toLowerCase();
  const settlement = typeof remote.details?.settlement === "string" ? remote.details.settlement : undefined;
  return { reason, ...(settlement ? { settlement } : {}) };
}
