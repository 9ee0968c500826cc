// The rail port: how a provider HTTP request reaches the vendor and how it is paid for (our API
// key, an x402 payment, or an MPP payment), and how a rail says it could not. The domain pairs a
// route with its rail; the rails in rails/ implement this. Rails never know which capability they serve.

/** Route network a rail serves (the catalog's networkKey). */
export type RailNetwork = "direct" | "agentcash" | "mpp";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A vendor request as a provider adapter builds it. */
export interface ProviderHttpRequest {
  method: HttpMethod;
  url: string;
  /** Header names in any case; the vendor's auth header, if any, is already set by the adapter. */
  headers: Record<string, string>;
  /** A JSON value (sent as application/json) or a string (sent as is); absent for no body. */
  body?: unknown;
}

/** How a call was paid for. */
export interface RailPayment {
  /** The settlement rail: our vendor key (api_key), an x402 payment or an MPP payment. */
  rail: "api_key" | "x402" | "mpp";
  /** Atomic units of `asset` we authorized (x402/mpp). */
  amountAtomic?: string;
  /** Token contract address (x402/mpp). */
  asset?: string;
  /** CAIP-2 network of the payment, e.g. `eip155:8453` (x402/mpp). */
  network?: string;
  /** Recipient of the payment (x402 payTo, MPP recipient). */
  payTo?: string;
  /** Our paying address. */
  payer?: string;
  /** Settlement reference from the seller: x402 transaction hash, MPP receipt reference. */
  reference?: string;
  /** The amount in micro-USD (1 credit = 1000), rounded up (x402/mpp). */
  amountMicroUsd?: number;
  /**
   * `settled`: the seller confirmed settlement. `unconfirmed`: we signed, the seller answered 2xx but
   * sent no settlement header, so the payment may still be collected (book it as spent, pending).
   * `rejected`: the seller refused the signed authorization (402 after paying); `unknown`: it was sent
   * and no answer came. Neither is known to be collected, but the authorization stays valid until it expires.
   */
  settlement?: PaymentSettlement;
}

export type PaymentSettlement = "settled" | "unconfirmed" | "rejected" | "unknown";

/** The vendor's answer (after any payment handshake). Non-2xx answers are responses, not rail errors. */
export interface RailResponse {
  status: number;
  /** Lowercased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON when the vendor sent JSON, a BinaryBody for media (audio, image, video, octet-stream), else the text; undefined for an empty body. */
  body: unknown;
  /** Present when the call was paid (or billed to our key). */
  payment?: RailPayment;
}

/** A media answer (speech audio, an image), kept as bytes rather than decoded as text. */
export interface BinaryBody {
  kind: "binary";
  contentType: string;
  base64: string;
}

export interface SendOptions {
  /** Aborts the whole exchange, payment handshake included (the caller's deadline). */
  signal: AbortSignal;
  /**
   * Most this call may pay, in micro-USD (1 credit = 1000 micro-USD), e.g. the route's price. The rail's
   * configured ceiling applies too; the lower one wins. Ignored by the direct rail.
   */
  maxPriceMicroUsd?: number;
  /** Largest vendor answer read, in bytes (default: the rail's own limit); a larger one is a RailError. */
  maxResponseBytes?: number;
}

export interface Rail {
  readonly network: RailNetwork;
  /** Sends the request, handling the rail's payment handshake; throws RailError when it cannot. */
  send(req: ProviderHttpRequest, opts: SendOptions): Promise<RailResponse>;
}

/** The rails of this deployment. */
export interface RailSet {
  /** The rail of a route's network, or undefined when that rail is not configured. */
  get(network: string): Rail | undefined;
  /** Networks with a configured rail. */
  readonly networks: readonly RailNetwork[];
}

/** Connection errors raised before a request left: nothing reached the vendor. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * Why a rail could not deliver a request:
 * - `payment_rejected`: we would not pay (price above the ceiling, token or network not allowed, challenge
 *   expired) or the seller refused our signed payment (402 after paying). `reason` says which.
 * - `payment_required_unsupported`: the vendor asked for a payment this rail cannot make (no x402 `exact`
 *   EVM offer, no MPP `evm`/`charge` challenge with an `authorization` credential, or another protocol).
 * - `network`: the vendor could not be reached (connection refused, reset, DNS).
 * - `timeout`: the caller's signal fired before the exchange finished.
 * - `invalid_response`: the vendor's answer could not be read (`response_too_large`: above the byte limit).
 */
export type RailErrorKind = "payment_rejected" | "payment_required_unsupported" | "network" | "timeout" | "invalid_response";

export interface RailErrorOptions {
  /** The payment whose credential had been sent when the exchange failed: the seller may collect it. */
  payment?: RailPayment;
  /** Status and headers of the answer, when one arrived (e.g. an answer too large to read). */
  response?: { status: number; headers: Record<string, string> };
}

export class RailError extends Error {
  constructor(
    readonly kind: RailErrorKind,
    /** Stable snake_case detail, e.g. `price_above_ceiling`, `seller_rejected_payment`, `connection_failed`. */
    readonly reason: string,
    message: string,
    /** Public structured facts (amounts, reasons the seller gave); never secrets. */
    readonly details?: Record<string, unknown>,
    readonly opts: RailErrorOptions = {},
  ) {
    super(message);
    this.name = "RailError";
  }

  /** The payment sent before the failure, if any. */
  get payment(): RailPayment | undefined {
    return this.opts.payment;
  }

  /** True when a signed payment was sent before the failure (the seller may still have collected it). */
  get paymentSent(): boolean {
    return this.opts.payment !== undefined;
  }

  /** The same error, recording that `payment`'s credential had been sent. */
  withPayment(payment: RailPayment): RailError {
    return new RailError(this.kind, this.reason, this.message, this.details, { ...this.opts, payment });
  }
}

/** Micro-USD of a credit price (1000 credits = 1 USD, so 1 credit = 1000 micro-USD). */
export function creditsToMicroUsd(credits: number): number {
  return Math.round(credits * 1000);
}
