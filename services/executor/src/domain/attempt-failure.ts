// What a failed provider attempt means: its error kind (for route health and metrics), the usage
// error code, whose fault it was, whether the vendor may have acted anyway, and a public summary.
// Fallback is allowed only when the vendor is to blame and certainly did not act, so a fallback
// never performs an operation twice (e.g. sends the same email through two vendors).
import { ProviderError } from "../providers";
import { RailError } from "../rails";

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
  /** Public one-line description, e.g. "HTTP 503 from resend". Never the vendor's own message. */
  summary: string;
}

/** Connection errors raised before a request reached the vendor. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Classifies what rail.send or adapter.parseResponse threw. Unknown errors count as unreadable answers. */
export function classifyFailure(err: unknown, providerKey: string, timeoutMs: number): AttemptFailure {
  if (err instanceof RailError) {
    switch (err.kind) {
      case "timeout":
        return { errorKind: "timeout", usageErrorCode: "PROVIDER_TIMEOUT", blame: "provider", mayHaveActed: true, summary: `no answer from ${providerKey} within ${timeoutMs} ms` };
      case "network": {
        const code = typeof err.details?.code === "string" ? err.details.code : "";
        return { errorKind: "network", usageErrorCode: "PROVIDER_ERROR", blame: "provider", mayHaveActed: !NOT_SENT_CODES.has(code), summary: `could not reach ${providerKey}` };
      }
      default:
        // The vendor served nothing without a settled payment; a refused payment is not collected.
        return { errorKind: "payment", usageErrorCode: "PAYMENT_FAILED", blame: "provider", mayHaveActed: false, summary: `payment to ${providerKey} failed (${err.reason})` };
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
        summary: `HTTP ${err.status ?? "error"} from ${providerKey}${code}`,
      };
    }
  }
  return { errorKind: "invalid_response", usageErrorCode: "PROVIDER_ERROR", blame: "provider", mayHaveActed: true, summary: `an unexpected answer from ${providerKey}` };
}

/** Whether the next route may be tried after this failure (when the caller allows fallback). */
export function mayFallBack(f: AttemptFailure): boolean {
  return f.blame === "provider" && !f.mayHaveActed;
}
