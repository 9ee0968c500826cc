// What a failed provider attempt means: its error kind (for route health and metrics), the usage
// error code, whose fault it was, whether the vendor may have acted anyway, and a public summary.
// Fallback is allowed only when the vendor is to blame and certainly did not act, so a fallback
// never performs an operation twice (e.g. sends the same email through two vendors); and once a
// payment credential has left for the attempt, never to another paying route (it could pay twice).
import { ProviderError } from "./provider-port";
import { NOT_SENT_CODES, RailError } from "./rail-port";

/** RouteOutcome.error_kind vocabulary. */
export type ErrorKind = "timeout" | "http_5xx" | "http_4xx" | "payment" | "network" | "invalid_response";

export interface AttemptFailure {
  errorKind: ErrorKind;
  /** UsageItem.error_code of the failed attempt. */
  usageErrorCode: "PROVIDER_TIMEOUT" | "PROVIDER_ERROR" | "PROVIDER_REJECTED_INPUT" | "PAYMENT_FAILED";
  /** input: the vendor refused what the caller asked (another route would too); provider: the route failed. */
  blame: "input" | "provider";
  /** The vendor may have performed the operation although we saw no result (timeout, cut connection, unreadable answer). */
  mayHaveActed: boolean;
  /** A payment credential (x402, MPP) was sent for the attempt: the seller may collect it, whatever the outcome. */
  paymentSent: boolean;
  /** Public one-line description, e.g. "HTTP 503 from resend". Never the vendor's own message. */
  summary: string;
}

/**
 * Classifies what rail.send or adapter.parseResponse threw. Unknown errors count as unreadable answers.
 * `paid`: the answer being parsed came with a payment (a paid answer that fails to parse).
 */
export function classifyFailure(err: unknown, providerKey: string, timeoutMs: number, paid = false): AttemptFailure {
  if (err instanceof RailError) {
    const paymentSent = err.paymentSent;
    switch (err.kind) {
      case "timeout":
        return {
          errorKind: "timeout",
          usageErrorCode: "PROVIDER_TIMEOUT",
          blame: "provider",
          mayHaveActed: true,
          paymentSent,
          summary: `no answer from ${providerKey} within ${timeoutMs} ms`,
        };
      case "network": {
        const code = typeof err.details?.code === "string" ? err.details.code : "";
        return {
          errorKind: "network",
          usageErrorCode: "PROVIDER_ERROR",
          blame: "provider",
          mayHaveActed: !NOT_SENT_CODES.has(code),
          paymentSent,
          summary: `could not reach ${providerKey}`,
        };
      }
      case "invalid_response":
        // An answer came (too large to read): the vendor may have acted.
        return {
          errorKind: "invalid_response",
          usageErrorCode: "PROVIDER_ERROR",
          blame: "provider",
          mayHaveActed: true,
          paymentSent,
          summary: `an answer from ${providerKey} too large to read`,
        };
      default:
        // The vendor served nothing without a settled payment; a refused payment is not collected.
        return {
          errorKind: "payment",
          usageErrorCode: "PAYMENT_FAILED",
          blame: "provider",
          mayHaveActed: false,
          paymentSent,
          summary: `payment to ${providerKey} failed (${err.reason})`,
        };
    }
  }
  if (err instanceof ProviderError) {
    const code = err.vendorCode ? `, ${err.vendorCode}` : "";
    if (err.kind === "http_4xx" || err.kind === "http_5xx") {
      const blame = err.blame;
      return {
        errorKind: err.kind,
        usageErrorCode: blame === "input" ? "PROVIDER_REJECTED_INPUT" : "PROVIDER_ERROR",
        blame,
        // An error status means the vendor did not perform the operation.
        mayHaveActed: false,
        paymentSent: paid,
        summary: `HTTP ${err.status ?? "error"} from ${providerKey}${code}`,
      };
    }
  }
  return {
    errorKind: "invalid_response",
    usageErrorCode: "PROVIDER_ERROR",
    blame: "provider",
    mayHaveActed: true,
    paymentSent: paid,
    summary: `an unexpected answer from ${providerKey}`,
  };
}

/** Whether the next route may be tried after this failure (when the caller allows fallback). */
export function mayFallBack(f: AttemptFailure): boolean {
  return f.blame === "provider" && !f.mayHaveActed;
}
