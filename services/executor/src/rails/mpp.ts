// The MPP rail (network "mpp", settlement "mpp"): on a 402 with `WWW-Authenticate: Payment` it picks
// an `evm`/`charge` challenge payable with an allowed USDC, signs the EIP-3009 `authorization`
// credential whose nonce binds it to the challenge (keccak256(id ‖ realm)), retries once with
// `Authorization: Payment <credential>` and reads the `Payment-Receipt`.
import { encodePacked, isAddress, keccak256, type Hex } from "viem";
import { signTransferAuthorization } from "./eip3009";
import { exchange, prepareRequest } from "./http-exchange";
import { decodeBase64UrlJson, encodeCredential, readPaymentChallenges, readReceipt, type PaymentChallenge } from "./mpp-wire";
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
import { findAsset, type StablecoinAsset } from "./stablecoins";

/** A challenge must leave at least this long to sign and send the credential. */
const MIN_REMAINING_MS = 2000;
/** Validity of the authorization when the challenge has no `expires`. */
const DEFAULT_VALIDITY_S = 300;

interface ChargeRequest {
  amount: string;
  currency: string;
  recipient: string;
  methodDetails?: { chainId?: unknown; credentialTypes?: unknown; splits?: unknown };
}

interface Choice {
  challenge: PaymentChallenge;
  request: ChargeRequest;
  asset: StablecoinAsset;
  amount: bigint;
}

export class MppRail implements Rail {
  readonly network = "mpp" as const;
  private readonly nowMs: () => number;

  constructor(private readonly opts: PayingRailOptions) {
    this.nowMs = opts.nowMs ?? Date.now;
  }

  async send(req: ProviderHttpRequest, opts: SendOptions): Promise<RailResponse> {
    const prepared = prepareRequest(req);
    const first = await exchange(prepared, opts.signal, {}, opts.maxResponseBytes);
    if (first.status !== 402) return first;

    const choice = this.choose(readPaymentChallenges(first.headers["www-authenticate"]), callCeilingMicroUsd(opts, this.opts));
    const { challenge, asset, amount } = choice;
    const nowS = Math.floor(this.nowMs() / 1000);
    const { authorization, signature } = await signTransferAuthorization(this.opts.account, asset, {
      to: choice.request.recipient as Hex,
      valueAtomic: amount,
      validAfter: 0,
      // The spec ties the authorization's life to the challenge's; capped as x402's are, whatever the challenge says.
      validBefore: Math.min(
        challenge.expires ? Math.floor(Date.parse(challenge.expires) / 1000) : nowS + DEFAULT_VALIDITY_S,
        nowS + MAX_AUTHORIZATION_VALIDITY_S,
      ),
      nonce: keccak256(encodePacked(["string", "string"], [challenge.id, challenge.realm])),
    });
    const credential = encodeCredential({
      challenge,
      payload: { type: "authorization", ...authorization, signature },
      source: `did:pkh:eip155:${asset.chainId}:${this.opts.account.address}`,
    });
    // With header="Payment-Authorization" the credential must leave the vendor's own Authorization alone.
    const headerName = challenge.header?.toLowerCase() === "payment-authorization" ? "payment-authorization" : "authorization";

    const made = (settlement: PaymentSettlement, reference?: string) => ({
      rail: "mpp" as const,
      amount,
      asset,
      payTo: choice.request.recipient,
      payer: this.opts.account.address,
      settlement,
      ...(reference !== undefined ? { reference } : {}),
    });
    let paid: Omit<RailResponse, "payment">;
    try {
      paid = await exchange(prepared, opts.signal, { [headerName]: credential }, opts.maxResponseBytes);
    } catch (err) {
      throw paidExchangeFailed(err, (s, ref) => paymentRecord(made(s, ref)), settlementOf);
    }
    if (paid.status === 402) {
      const problem = typeof paid.body === "object" && paid.body !== null ? (paid.body as Record<string, unknown>) : {};
      throw new RailError(
        "payment_rejected",
        "seller_rejected_payment",
        "the provider refused the signed MPP credential",
        {
          ...(typeof problem.type === "string" ? { problemType: problem.type } : {}),
          ...(typeof problem.detail === "string" ? { problemDetail: problem.detail } : {}),
          amountAtomic: amount.toString(),
          network: asset.network,
        },
        // Refused, but signed and sent: collectable by whoever holds it until it expires.
        { payment: paymentRecord(made("rejected")) },
      );
    }
    const outcome = settlementOf(paid.status, paid.headers);
    return outcome ? withPayment(paid, made(outcome.settlement, outcome.reference)) : paid;
  }

  /** The first challenge (server order = preference) we can and may pay. */
  private choose(challenges: PaymentChallenge[], ceilingMicroUsd: number): Choice {
    if (challenges.length === 0)
      throw new RailError(
        "payment_required_unsupported",
        "no_payment_challenge",
        "the provider asked for a payment without an MPP challenge",
      );
    const charges = challenges.filter((c) => c.method === "evm" && c.intent === "charge");
    if (charges.length === 0) {
      throw new RailError(
        "payment_required_unsupported",
        "no_supported_method",
        "no MPP challenge uses the evm method with the charge intent",
        { offered: challenges.map((c) => `${c.method}/${c.intent}`) },
      );
    }
    const usable = charges.flatMap((challenge): Array<{ challenge: PaymentChallenge; request: ChargeRequest }> => {
      const request = decodeBase64UrlJson(challenge.request) as ChargeRequest | undefined;
      const types = request?.methodDetails?.credentialTypes;
      const ok =
        typeof request?.amount === "string" &&
        /^\d+$/.test(request.amount) &&
        typeof request.currency === "string" &&
        typeof request.recipient === "string" &&
        isAddress(request.recipient) &&
        // Servers list "authorization" only for EIP-3009 tokens; splits need Permit2, which we do not sign.
        Array.isArray(types) &&
        types.includes("authorization") &&
        request.methodDetails?.splits === undefined;
      return ok ? [{ challenge, request: request as ChargeRequest }] : [];
    });
    if (usable.length === 0)
      throw new RailError(
        "payment_required_unsupported",
        "credential_type_unsupported",
        "no evm/charge challenge accepts an EIP-3009 authorization credential",
      );

    const allowed = usable.flatMap((u) => {
      const chainId = u.request.methodDetails?.chainId;
      const asset = typeof chainId === "number" ? findAsset(this.opts.assets, chainId, u.request.currency) : undefined;
      return asset ? [{ ...u, asset, amount: BigInt(u.request.amount) }] : [];
    });
    if (allowed.length === 0) {
      throw new RailError("payment_rejected", "asset_not_allowed", "no MPP challenge is payable with an allowed token", {
        offered: usable.map((u) => `${u.request.currency}@${String(u.request.methodDetails?.chainId)}`),
      });
    }
    const live = allowed.filter((c) => !c.challenge.expires || Date.parse(c.challenge.expires) - this.nowMs() >= MIN_REMAINING_MS);
    if (live.length === 0)
      throw new RailError("payment_rejected", "challenge_expired", "the MPP challenge expired before it could be paid", {
        expires: allowed[0]?.challenge.expires,
      });
    const affordable = live.find((c) => withinCeiling(c.amount, c.asset, ceilingMicroUsd));
    if (!affordable) {
      const first = live[0] as Choice;
      throw priceAboveCeiling("MPP", first.amount, first.asset, ceilingMicroUsd);
    }
    return affordable;
  }
}

/**
 * What the seller did with our credential, from its answer: settled (with the receipt's reference)
 * when a receipt came, whatever the status; unconfirmed for a 2xx without one; not paid for an error
 * answer without a receipt (the seller kept the credential unsettled).
 */
function settlementOf(status: number, headers: Record<string, string>): { settlement: PaymentSettlement; reference?: string } | undefined {
  const receipt = readReceipt(headers["payment-receipt"]);
  if (receipt) return { settlement: "settled", reference: receipt.reference };
  return status < 300 ? { settlement: "unconfirmed" } : undefined;
}
