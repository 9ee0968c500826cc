// x402 wire objects (v1 and v2) as the sandbox seller and facilitator read and write them.

/** v2 `PaymentRequirements` (one element of `accepts`, and the client's `accepted` echo). */
export interface RequirementsV2 {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: { name?: string; version?: string; [k: string]: unknown };
}

/** v1 `PaymentRequirements` (resource metadata inline, `maxAmountRequired`). */
export interface RequirementsV1 {
  scheme: string;
  network: string;
  maxAmountRequired: string;
  asset: string;
  payTo: string;
  resource: string;
  description: string;
  mimeType: string;
  maxTimeoutSeconds: number;
  extra?: { name?: string; version?: string; [k: string]: unknown };
}

/** Facilitator `/verify` and `/settle` request body. */
export interface FacilitatorRequest {
  x402Version: number;
  paymentPayload: unknown;
  paymentRequirements: unknown;
}

export interface VerifyResponse {
  isValid: boolean;
  invalidReason?: string;
  invalidMessage?: string;
  payer?: string;
}

export interface SettleResponse {
  success: boolean;
  errorReason?: string;
  errorMessage?: string;
  payer?: string;
  /** Transaction hash; empty string when nothing was settled. */
  transaction: string;
  network: string;
  amount?: string;
}

/** Standard base64 (with padding) of a JSON value, as x402 headers carry it. */
export function encodeX402Header(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/** Parses an x402 base64 JSON header; undefined when it is not base64 JSON. */
export function decodeX402Header(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
}
