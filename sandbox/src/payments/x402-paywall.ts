// The x402 seller in front of a paid vendor: 402 with requirements (v2 `PAYMENT-REQUIRED` header or
// v1 JSON body), then verify → vendor → settle, adding `PAYMENT-RESPONSE`. A vendor error (>= 400)
// is passed through unsettled, as the reference Express middleware does.
import { Json } from "ox";
import { SANDBOX_NETWORK, SANDBOX_NETWORK_V1, SANDBOX_USDC, X402_PAY_TO } from "./assets";
import type { GateRequest, GateResult, PaymentGate } from "./payment-gate";
import type { Facilitator } from "./x402-facilitator";
import { decodeX402Header, encodeX402Header, type RequirementsV1, type RequirementsV2, type SettleResponse } from "./x402-types";
import type { VendorReply } from "../http/vendor";

/** Test knobs of the x402 seller (mutable through the control API). */
export interface X402Knobs {
  /** Protocol version of the challenge: 2 (header) or 1 (JSON body). */
  version: 1 | 2;
  /** Replace fields of the real offer (advertise another price, asset, network or token name). */
  offerOverrides: { amount?: string; asset?: string; network?: string; extraName?: string };
  /** Put an offer the sandbox cannot settle (Solana) first in `accepts`. */
  prependUnsupportedOffer: boolean;
  /** Settle even when the vendor failed (a misbehaving seller: the buyer paid for an error answer). */
  settleFailedCalls: boolean;
}

const MAX_TIMEOUT_SECONDS = 60;

const SOLANA_DEVNET_OFFER = {
  scheme: "exact",
  asset: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  payTo: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
  extra: { feePayer: "2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4" },
};

export class X402Paywall implements PaymentGate {
  constructor(
    private readonly facilitator: Facilitator,
    private readonly knobs: X402Knobs,
  ) {}

  async check({ req, price, resourceUrl }: GateRequest): Promise<GateResult> {
    const offerV2 = this.offerV2(price.amountAtomic);
    const offerV1 = this.offerV1(price.amountAtomic, resourceUrl, price.description);
    const challenge = (error: string, settlement?: SettleResponse): GateResult => ({
      kind: "reply",
      reply: this.challenge(error, resourceUrl, price.description, offerV2, offerV1, settlement),
    });

    const proof = req.headers["payment-signature"] ?? req.headers["x-payment"];
    if (!proof) return challenge(this.knobs.version === 2 ? "PAYMENT-SIGNATURE header is required" : "X-PAYMENT header is required");
    const payload = decodeX402Header(proof);
    if (typeof payload !== "object" || payload === null) return challenge("invalid_payload");
    const p = payload as Record<string, unknown>;

    let version: 1 | 2;
    let requirements: RequirementsV1 | RequirementsV2;
    if (p.x402Version === 2) {
      // v2 matches the echoed requirement by deep equality with what we offer.
      if (!isJsonEqual(p.accepted, offerV2)) return challenge("no offered requirement matches the accepted one");
      version = 2;
      requirements = offerV2;
    } else if (p.x402Version === 1) {
      if (p.scheme !== offerV1.scheme || p.network !== offerV1.network)
        return challenge("no offered requirement matches scheme and network");
      version = 1;
      requirements = offerV1;
    } else {
      return challenge("invalid_x402_version");
    }

    const body = { x402Version: version, paymentPayload: payload, paymentRequirements: requirements };
    const verdict = await this.facilitator.verify(body);
    if (!verdict.isValid) return challenge(verdict.invalidReason ?? "invalid_payment");

    return {
      kind: "paid",
      settle: async (vendorReply) => {
        if (vendorReply.status >= 400 && !this.knobs.settleFailedCalls) return { reply: vendorReply, settled: false };
        const settlement = await this.facilitator.settle(body);
        if (!settlement.success)
          return {
            reply: this.challenge(
              settlement.errorReason ?? "settlement failed",
              resourceUrl,
              price.description,
              offerV2,
              offerV1,
              settlement,
            ),
            settled: false,
          };
        const headerName = version === 2 ? "PAYMENT-RESPONSE" : "X-PAYMENT-RESPONSE";
        return {
          reply: {
            ...vendorReply,
            headers: { ...vendorReply.headers, [headerName]: encodeX402Header(settlement), "Cache-Control": "private, no-cache" },
          },
          settled: true,
        };
      },
    };
  }

  private offerV2(amount: string): RequirementsV2 {
    const o = this.knobs.offerOverrides;
    return {
      scheme: "exact",
      network: o.network ?? SANDBOX_NETWORK,
      amount: o.amount ?? amount,
      asset: o.asset ?? SANDBOX_USDC.address,
      payTo: X402_PAY_TO,
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      extra: { name: o.extraName ?? SANDBOX_USDC.name, version: SANDBOX_USDC.version },
    };
  }

  private offerV1(amount: string, resource: string, description: string): RequirementsV1 {
    const o = this.knobs.offerOverrides;
    return {
      scheme: "exact",
      network: o.network ?? SANDBOX_NETWORK_V1,
      maxAmountRequired: o.amount ?? amount,
      asset: o.asset ?? SANDBOX_USDC.address,
      payTo: X402_PAY_TO,
      resource,
      description,
      mimeType: "application/json",
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      extra: { name: o.extraName ?? SANDBOX_USDC.name, version: SANDBOX_USDC.version },
    };
  }

  private challenge(
    error: string,
    url: string,
    description: string,
    v2: RequirementsV2,
    v1: RequirementsV1,
    settlement?: SettleResponse,
  ): VendorReply {
    if (this.knobs.version === 1) {
      const accepts = this.knobs.prependUnsupportedOffer
        ? [
            {
              ...SOLANA_DEVNET_OFFER,
              network: "solana-devnet",
              maxAmountRequired: v1.maxAmountRequired,
              resource: url,
              description,
              mimeType: "application/json",
            },
            v1,
          ]
        : [v1];
      return {
        status: 402,
        body: { x402Version: 1, error, accepts },
        ...(settlement ? { headers: { "X-PAYMENT-RESPONSE": encodeX402Header(settlement) } } : {}),
      };
    }
    const accepts = this.knobs.prependUnsupportedOffer
      ? [{ ...SOLANA_DEVNET_OFFER, network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", amount: v2.amount }, v2]
      : [v2];
    const required = { x402Version: 2, error, resource: { url, description, mimeType: "application/json" }, accepts };
    return {
      status: 402,
      body: {},
      headers: {
        "PAYMENT-REQUIRED": encodeX402Header(required),
        ...(settlement ? { "PAYMENT-RESPONSE": encodeX402Header(settlement) } : {}),
      },
    };
  }
}

/** Deep equality of two JSON values (key order ignored), via RFC 8785 canonical form. */
function isJsonEqual(a: unknown, b: unknown): boolean {
  try {
    return a !== undefined && Json.canonicalize(a) === Json.canonicalize(b);
  } catch {
    return false;
  }
}
