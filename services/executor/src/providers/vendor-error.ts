// Maps a vendor's error answer to a ProviderError with the right retry and fallback semantics
// (see ProviderError), using the vendor's own error body for the code and message.
import type { RailResponse } from "../domain/rail-port";
import { ProviderError } from "../domain/provider-port";

/** What an adapter reads from its vendor's error body. */
export interface VendorErrorInfo {
  code?: string;
  message?: string;
  /** Overrides the status-based blame, e.g. a 404 that means "our endpoint is wrong" (provider). */
  blame?: "input" | "provider";
}

/** Statuses that tell us to try again later. */
const TRANSIENT = new Set([408, 425, 429]);
/** Statuses about our credentials, plan or quota with the vendor, not the caller's input. */
const ACCOUNT = new Set([401, 402, 403, 456]);

export function vendorError(providerKey: string, res: RailResponse, info: VendorErrorInfo = {}): ProviderError {
  const { status } = res;
  const message = `${providerKey} answered ${status}${info.message ? `: ${info.message}` : ""}`;
  const details = {
    status,
    ...(info.code !== undefined ? { vendorCode: info.code } : {}),
    ...(info.message !== undefined ? { vendorMessage: info.message } : {}),
  };
  if (status >= 500) return new ProviderError("http_5xx", providerKey, message, { ...details, retryable: true, blame: "provider" });
  if (status >= 400) {
    const transient = TRANSIENT.has(status);
    const blame = info.blame ?? (transient || ACCOUNT.has(status) ? "provider" : "input");
    return new ProviderError("http_4xx", providerKey, message, { ...details, retryable: transient, blame });
  }
  return new ProviderError("invalid_response", providerKey, `${providerKey} answered ${status} without the documented result`, {
    ...details,
    retryable: false,
    blame: "provider",
  });
}

/** A 2xx answer whose body does not match the vendor's documented result. */
export function invalidResponse(providerKey: string, res: RailResponse, what: string): ProviderError {
  return new ProviderError("invalid_response", providerKey, `${providerKey} answered ${res.status} but ${what}`, {
    status: res.status,
    retryable: false,
    blame: "provider",
  });
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string field of a JSON object, if it is one. */
export function stringField(value: unknown, key: string): string | undefined {
  return isRecord(value) && typeof value[key] === "string" ? (value[key] as string) : undefined;
}
