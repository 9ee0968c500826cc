// Typed errors with a stable public code and hint, and their mapping to and from gRPC status.
import { Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";

/** Trailing-metadata keys that carry our error details across a gRPC hop. */
export const ERROR_CODE_METADATA = "agentic-error-code";
export const ERROR_HINT_METADATA = "agentic-error-hint";
export const ERROR_DETAILS_METADATA = "agentic-error-details-bin";

/**
 * An error whose message, code and hint may be shown to API clients.
 * `code` is UPPER_SNAKE and stable; `details` is optional public structured data.
 */
export class AppError extends Error {
  constructor(
    readonly grpcCode: GrpcStatus,
    readonly code: string,
    message: string,
    readonly hint: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const invalidArgument = (code: string, message: string, hint: string, details?: Record<string, unknown>) =>
  new AppError(GrpcStatus.INVALID_ARGUMENT, code, message, hint, details);
export const notFound = (code: string, message: string, hint: string) =>
  new AppError(GrpcStatus.NOT_FOUND, code, message, hint);
export const unauthenticated = (code: string, message: string, hint: string) =>
  new AppError(GrpcStatus.UNAUTHENTICATED, code, message, hint);
export const failedPrecondition = (code: string, message: string, hint: string, details?: Record<string, unknown>) =>
  new AppError(GrpcStatus.FAILED_PRECONDITION, code, message, hint, details);
export const unavailable = (code: string, message: string, hint: string) =>
  new AppError(GrpcStatus.UNAVAILABLE, code, message, hint);

/** Turns any thrown value into a gRPC ServiceError; only AppErrors keep their message. */
export function toServiceError(err: unknown): Partial<ServiceError> {
  const metadata = new Metadata();
  if (err instanceof AppError) {
    metadata.set(ERROR_CODE_METADATA, err.code);
    metadata.set(ERROR_HINT_METADATA, err.hint);
    if (err.details) metadata.set(ERROR_DETAILS_METADATA, Buffer.from(JSON.stringify(err.details)));
    return { code: err.grpcCode, details: err.message, metadata };
  }
  metadata.set(ERROR_CODE_METADATA, "INTERNAL");
  metadata.set(ERROR_HINT_METADATA, "Retry later; if it persists, report the traceId.");
  return { code: GrpcStatus.INTERNAL, details: "internal error", metadata };
}

/** The public view of an error that crossed a gRPC hop. */
export interface RemoteError {
  grpcCode: GrpcStatus;
  code: string;
  message: string;
  hint: string;
  details?: Record<string, unknown>;
}

const DEFAULT_CODES: Partial<Record<GrpcStatus, { code: string; hint: string }>> = {
  [GrpcStatus.UNAVAILABLE]: { code: "UNAVAILABLE", hint: "A backend service is unavailable; retry shortly." },
  [GrpcStatus.DEADLINE_EXCEEDED]: { code: "TIMEOUT", hint: "A backend service did not answer in time; retry shortly." },
};

/** Reads our error code, hint and details back from a gRPC error (any shape). */
export function fromServiceError(err: unknown): RemoteError {
  const e = err as Partial<ServiceError>;
  const grpcCode = typeof e?.code === "number" ? e.code : GrpcStatus.UNKNOWN;
  const meta = e?.metadata instanceof Metadata ? e.metadata : undefined;
  const code = meta?.get(ERROR_CODE_METADATA)[0]?.toString();
  const hint = meta?.get(ERROR_HINT_METADATA)[0]?.toString();
  const rawDetails = meta?.get(ERROR_DETAILS_METADATA)[0];
  let details: Record<string, unknown> | undefined;
  if (Buffer.isBuffer(rawDetails)) {
    try {
      details = JSON.parse(rawDetails.toString("utf8"));
    } catch {
      details = undefined;
    }
  }
  if (code) return { grpcCode, code, message: e.details ?? code, hint: hint ?? "", details };
  const fallback = DEFAULT_CODES[grpcCode] ?? { code: "INTERNAL", hint: "Retry later; if it persists, report the traceId." };
  return { grpcCode, code: fallback.code, message: fallback.code === "INTERNAL" ? "internal error" : (e.details ?? fallback.code), hint: fallback.hint };
}
