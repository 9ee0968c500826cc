// The contract between a vendor mount and the payment protocol in front of it (x402 or MPP):
// either answer now (challenge, rejection), or let the vendor work and settle only if it succeeded.
import type { VendorPrice, VendorReply, VendorRequest } from "../http/vendor";

/** Where the paid request arrived, as the protocol needs it (resource URL, realm). */
export interface GateRequest {
  req: VendorRequest;
  price: VendorPrice;
  /** Absolute URL of the resource, e.g. `http://127.0.0.1:8090/apollo/api/v1/mixed_people/api_search`. */
  resourceUrl: string;
  /** `host[:port]` the client addressed (MPP realm). */
  host: string;
}

/** Result of the settle step: the reply to send and whether money moved. */
export interface Settled {
  reply: VendorReply;
  settled: boolean;
}

export type GateResult = { kind: "reply"; reply: VendorReply } | { kind: "paid"; settle(vendorReply: VendorReply): Promise<Settled> };

export interface PaymentGate {
  check(input: GateRequest): Promise<GateResult>;
}

/** True when the request carries an x402 or MPP payment proof (for the call log). */
export function hasPaymentProof(headers: Readonly<Record<string, string>>): boolean {
  return Boolean(
    headers["payment-signature"] ||
    headers["x-payment"] ||
    headers["payment-authorization"] ||
    /^payment\s/i.test(headers["authorization"] ?? ""),
  );
}
