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

/**
 * A dependency that could not be reached (or answered too late) while handling a call: a raw
 * grpc-js UNAVAILABLE or DEADLINE_EXCEEDED of a downstream call. It is passed on as this service
 * being unavailable (503 at the edge), never as an internal error.
 */
export function isDependencyUnavailable(err: unknown): boolean {
  if (err instanceof AppError || typeof err !== "object" || err === null) return false;
  const e = err as Partial<ServiceError>;
  return (e.code === GrpcStatus.UNAVAILABLE || e.code === GrpcStatus.DEADLINE_EXCEEDED) && e.metadata instanceof Metadata && !e.metadata.get(ERROR_CODE_METADATA).length;
}

/** Turns any thrown value into a gRPC ServiceError; only AppErrors keep their message. */
export function toServiceError(err: unknown): Partial<ServiceError> {
  const metadata = new Metadata();
  if (isDependencyUnavailable(err)) {
    metadata.set(ERROR_CODE_METADATA, "UNAVAILABLE");
    metadata.set(ERROR_HINT_METADATA, "A backend service is unavailable; retry shortly.");
    return { code: GrpcStatus.UNAVAILABLE, details: "A backend service is unavailable.", metadata };
  }
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

/**
 * What a gRPC error without our code metadata (raised by grpc-js itself: a connection refused, a
 * deadline) says publicly. Its own text names internal addresses and balancers, so it is never passed on.
 */
const DEFAULT_CODES: Partial<Record<GrpcStatus, { code: string; message: string; hint: string }>> = {
  [GrpcStatus.UNAVAILABLE]: { code: "UNAVAILABLE", message: "A backend service is unavailable.", hint: "A backend service is unavailable; retry shortly." },
  [GrpcStatus.DEADLINE_EXCEEDED]: { code: "TIMEOUT", message: "A backend service did not answer in time.", hint: "A backend service did not answer in time; retry shortly." },
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
  const fallback = DEFAULT_CODES[grpcCode] ?? { code: "INTERNAL", message: "internal error", hint: "Retry later; if it persists, report the traceId." };
  return { grpcCode, code: fallback.code, message: fallback.message, hint: fallback.hint };
}
