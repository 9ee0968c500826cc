// The x402 facilitator as the top-up rules need it: verify and settle a payment, each answer
// classified for the money rules (a definite yes, a definite no with the facilitator's reason, or
// unknown: after an unknown settle the transfer may or may not have happened, so the top-up stays
// pending). facilitator/http-facilitator.ts speaks the standard HTTP API.

export interface FacilitatorBody {
  x402Version: 2;
  paymentPayload: unknown;
  paymentRequirements: unknown;
}

export type VerifyAnswer =
  { kind: "valid"; payer?: string } | { kind: "invalid"; reason: string; message?: string } | { kind: "unknown"; error: string };

export type SettleAnswer =
  | { kind: "settled"; transaction?: string; response: Record<string, unknown> }
  | { kind: "refused"; reason: string; message?: string; response: Record<string, unknown> }
  | { kind: "unknown"; error: string };

export interface Facilitator {
  verify(body: FacilitatorBody): Promise<VerifyAnswer>;
  settle(body: FacilitatorBody): Promise<SettleAnswer>;
}
