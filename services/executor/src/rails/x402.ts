// The x402 rail (network "agentcash", settlement "x402"): on a 402 it picks an `exact` EVM offer for
// an allowed USDC within the price ceiling, signs an EIP-3009 authorization with the service wallet,
// retries once with the payment header (v2 `PAYMENT-SIGNATURE` or v1 `X-PAYMENT`) and reads the
// settlement response. It never signs for an unknown token, above the ceiling, or twice per call.
import { randomBytes } from "node:crypto";
import { isAddress, toHex, type Hex } from "viem";
import { signTransferAuthorization } from "./eip3009";
import { exchange, prepareRequest } from "./http-exchange";
import {
  MAX_AUTHORIZATION_VALIDITY_S,
  callCeilingMicroUsd,
  paidExchangeFailed,
  paymentRecord,
  priceAboveCeiling,
  withinCeiling,
  withPayment,
  type PayingRailOptions,
} from "./paying-rail";
import { RailError } from "../domain/rail-port";
import type { PaymentSettlement, ProviderHttpRequest, Rail, RailResponse, SendOptions } from "../domain/rail-port";
import { evmChainId, findAsset, type StablecoinAsset } from "./stablecoins";
import { encodeHeader, readPaymentRequired, readSettlement, type Offer, type PaymentRequired } from "./x402-wire";

/** Seconds before "now" an authorization becomes valid (the reference client's clock-skew allowance). */
const VALID_AFTER_SKEW_S = 600;

interface Choice {
  offer: Offer;
  asset: StablecoinAsset;
  amount: bigint;
}

export class X402Rail implements Rail {
  readonly network = "agentcash" as const;
  private readonly nowMs: () => number;

  constructor(private readonly opts: PayingRailOptions) {
    this.nowMs = opts.nowMs ?? Date.now;
  }

  async send(req: ProviderHttpRequest, opts: SendOptions): Promise<RailResponse> {
    const prepared = prepareRequest(req);
    const first = await exchange(prepared, opts.signal, {}, opts.maxResponseBytes);
    if (first.status !== 402) return first;

    const required = readPaymentRequired(first.headers, first.body);
    if (!required) throw new RailError("payment_required_unsupported", "not_x402", "the provider asked for a payment that is not x402");
    const choice = this.choose(required, callCeilingMicroUsd(opts, this.opts));

    const nowS = Math.floor(this.nowMs() / 1000);
    const { authorization, signature } = await signTransferAuthorization(this.opts.account, choice.asset, {
      to: choice.offer.payTo as Hex,
      valueAtomic: choice.amount,
      validAfter: nowS - VALID_AFTER_SKEW_S,
      validBefore: nowS + Math.min(Math.max(choice.offer.maxTimeoutSeconds, 1), MAX_AUTHORIZATION_VALIDITY_S),
      nonce: toHex(randomBytes(32)),
    });
    const header: Record<string, string> =
      required.version === 2
        ? {
            "payment-signature": encodeHeader({
              x402Version: 2,
              ...(required.resource !== undefined ? { resource: required.resource } : {}),
              accepted: choice.offer.raw,
              payload: { signature, authorization },
              ...(required.extensions !== undefined ? { extensions: required.extensions } : {}),
            }),
          }
        : {
            "x-payment": encodeHeader({
              x402Version: 1,
              scheme: choice.offer.scheme,
              network: choice.offer.network,
              payload: { signature, authorization },
            }),
          };

    const made = (settlement: PaymentSettlement, reference?: string) => ({
      rail: "x402" as const,
      amount: choice.amount,
      asset: choice.asset,
      payTo: choice.offer.payTo,
      payer: this.opts.account.address,
      settlement,
      ...(reference !== undefined ? { reference } : {}),
    });
    let paid: Omit<RailResponse, "payment">;
    try {
      paid = await exchange(prepared, opts.signal, header, opts.maxResponseBytes);
    } catch (err) {
      throw paidExchangeFailed(err, (s, ref) => paymentRecord(made(s, ref)), settlementOf);
    }
    if (paid.status === 402) {
      const again = readPaymentRequired(paid.headers, paid.body);
      const settlement = readSettlement(paid.headers);
      throw new RailError(
        "payment_rejected",
        "seller_rejected_payment",
        "the provider refused the signed x402 payment",
        {
          ...(again?.error ? { sellerError: again.error } : {}),
          ...(settlement?.errorReason ? { settlementError: settlement.errorReason } : {}),
          amountAtomic: choice.amount.toString(),
          network: choice.asset.network,
        },
        // Refused, but signed and sent: collectable by whoever holds it until it expires.
        { payment: paymentRecord(made("rejected")) },
      );
    }
    const outcome = settlementOf(paid.status, paid.headers);
    return outcome ? withPayment(paid, made(outcome.settlement, outcome.reference)) : paid;
  }

  /** The cheapest offer we may pay: `exact`, EVM, an allowed token with its true domain, within the ceiling. */
  private choose(required: PaymentRequired, ceilingMicroUsd: number): Choice {
    const exactEvm = required.offers.filter((o) => o.scheme === "exact" && evmChainId(o.network) !== undefined);
    if (exactEvm.length === 0) {
      throw new RailError("payment_required_unsupported", "no_supported_scheme", "no x402 offer uses the exact scheme on an EVM network", {
        offered: required.offers.map((o) => `${o.scheme}@${o.network}`),
      });
    }
    const allowed = exactEvm.flatMap((offer) => {
      const asset = findAsset(this.opts.assets, evmChainId(offer.network) as number, offer.asset);
      return asset && /^\d+$/.test(offer.amount) && isAddress(offer.payTo) ? [{ offer, asset, amount: BigInt(offer.amount) }] : [];
    });
    if (allowed.length === 0) {
      throw new RailError("payment_rejected", "asset_not_allowed", "no x402 offer is payable with an allowed token", {
        offered: exactEvm.map((o) => `${o.asset}@${o.network}`),
      });
    }
    // A signature under another name/version would not verify on chain; never sign what the token rejects.
    const trueDomain = allowed.filter((c) => c.offer.extraName === c.asset.eip712Name && c.offer.extraVersion === c.asset.eip712Version);
    if (trueDomain.length === 0) {
      throw new RailError("payment_rejected", "token_domain_mismatch", "the x402 offer names the token with a wrong EIP-712 domain", {
        offeredName: allowed[0]?.offer.extraName ?? null,
      });
    }
    const affordable = trueDomain.filter((c) => withinCeiling(c.amount, c.asset, ceilingMicroUsd));
    if (affordable.length === 0) {
      const cheapest = trueDomain.reduce((a, b) => (a.amount <= b.amount ? a : b));
      throw priceAboveCeiling("x402", cheapest.amount, cheapest.asset, ceilingMicroUsd);
    }
    return affordable.reduce((a, b) => (toMicroUsd(a) <= toMicroUsd(b) ? a : b));
  }
}

/**
 * What the seller did with our payment, from its answer: settled (with the transaction) when it says
 * so, whatever the status; unconfirmed for a 2xx without a proof (it may still collect); not paid for an
 * error answer without a proof, which an x402 seller does not settle.
 */
function settlementOf(status: number, headers: Record<string, string>): { settlement: PaymentSettlement; reference?: string } | undefined {
  const settlement = readSettlement(headers);
  if (settlement?.success) return { settlement: "settled", ...(settlement.transaction ? { reference: settlement.transaction } : {}) };
  return status < 300 ? { settlement: "unconfirmed" } : undefined;
}

function toMicroUsd(c: Choice): bigint {
  const d = c.asset.decimals;
  return d >= 6 ? c.amount / 10n ** BigInt(d - 6) : c.amount * 10n ** BigInt(6 - d);
}
