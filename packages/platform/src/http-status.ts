// The one table from a gRPC status (plus our public error code) to the HTTP status an API client
// sees: used by the gateway to answer, and by the executor to record idempotent results as answered.
import { status as GrpcStatus } from "@grpc/grpc-js";

const GRPC_TO_HTTP: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.OUT_OF_RANGE]: 400,
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.ABORTED]: 409,
  [GrpcStatus.FAILED_PRECONDITION]: 409,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  [GrpcStatus.CANCELLED]: 499,
  [GrpcStatus.UNIMPLEMENTED]: 501,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DEADLINE_EXCEEDED]: 504,
};

/** Public codes whose HTTP status is more precise than their gRPC status gives. */
const CODE_TO_HTTP: Record<string, number> = {
  CREDITS_REQUIRED: 402,
  PROVIDER_ERROR: 502,
  EXECUTION_OUTCOME_UNKNOWN: 502,
  PROVIDER_TIMEOUT: 504,
  // Top-ups: a refused payment is still "payment required"; a facilitator that cannot be reached, or a
  // ledger that takes no payments, is the service being unavailable.
  PAYMENT_INVALID: 402,
  PAYMENT_FAILED: 402,
  PAYMENT_UNVERIFIED: 503,
  TOP_UP_UNAVAILABLE: 503,
};

/** HTTP status of an error with gRPC status `grpcCode` and public `code` (500 when unmapped). */
export function httpStatusOf(grpcCode: GrpcStatus, code: string): number {
  return CODE_TO_HTTP[code] ?? GRPC_TO_HTTP[grpcCode] ?? 500;
}
