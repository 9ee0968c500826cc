// The one place an AppError crosses a gRPC hop: its kind becomes a gRPC status and its code, hint and
// details ride in trailing metadata; on the other side the same AppError comes back. Raw grpc-js
// errors (a refused connection, a deadline) come back as UNAVAILABLE/TIMEOUT without their own text,
// which names internal addresses.
import { Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { AppError, internalError, type ErrorKind } from "../errors";

/** Trailing-metadata keys that carry our error details across a gRPC hop. */
export const ERROR_CODE_METADATA = "agentic-error-code";
export const ERROR_HINT_METADATA = "agentic-error-hint";
export const ERROR_DETAILS_METADATA = "agentic-error-details-bin";

const STATUS_OF_KIND: Record<ErrorKind, GrpcStatus> = {
  invalid_argument: GrpcStatus.INVALID_ARGUMENT,
  unauthenticated: GrpcStatus.UNAUTHENTICATED,
  permission_denied: GrpcStatus.PERMISSION_DENIED,
  not_found: GrpcStatus.NOT_FOUND,
  already_exists: GrpcStatus.ALREADY_EXISTS,
  aborted: GrpcStatus.ABORTED,
  failed_precondition: GrpcStatus.FAILED_PRECONDITION,
  resource_exhausted: GrpcStatus.RESOURCE_EXHAUSTED,
  cancelled: GrpcStatus.CANCELLED,
  unavailable: GrpcStatus.UNAVAILABLE,
  deadline_exceeded: GrpcStatus.DEADLINE_EXCEEDED,
  unimplemented: GrpcStatus.UNIMPLEMENTED,
  internal: GrpcStatus.INTERNAL,
};

const KIND_OF_STATUS = new Map<GrpcStatus, ErrorKind>(
  (Object.entries(STATUS_OF_KIND) as [ErrorKind, GrpcStatus][]).map(([kind, code]) => [code, kind]),
);
KIND_OF_STATUS.set(GrpcStatus.OUT_OF_RANGE, "invalid_argument");

/** The gRPC status an error kind travels as. */
export const grpcStatusOf = (kind: ErrorKind): GrpcStatus => STATUS_OF_KIND[kind];

/** The error kind of a gRPC status (anything without its own kind is internal). */
export const errorKindOf = (code: GrpcStatus): ErrorKind => KIND_OF_STATUS.get(code) ?? "internal";

/** grpc-js's own statuses for a call that got no answer: it could not connect, the connection or its stream dropped, the deadline passed. */
const UNANSWERED_STATUSES: ReadonlySet<number> = new Set([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.CANCELLED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNKNOWN,
]);

/**
 * Whether `err` is a call to another service that got no answer: a gRPC error raised by grpc-js
 * itself (our services always attach their code in metadata), e.g. connection refused, a stream
 * reset by a service that died mid-call, or the call's deadline. A backend passes it on as itself
 * being unavailable (503 at the edge), never as an internal error; the gateway names the backend.
 */
export function isUnansweredCall(err: unknown): err is { code: number; metadata: Metadata } {
  if (err instanceof AppError || typeof err !== "object" || err === null) return false;
  const e = err as Partial<ServiceError>;
  return (
    typeof e.code === "number" &&
    UNANSWERED_STATUSES.has(e.code) &&
    e.metadata instanceof Metadata &&
    !e.metadata.get(ERROR_CODE_METADATA).length
  );
}

/**
 * Whether an unanswered call (isUnansweredCall) never left this process: grpc-js found no connection
 * to send it on, or the server refused its stream before reading it. Any other unanswered call may
 * have been received and acted on (a connection that dropped mid-call, a reset stream).
 */
export function neverReachedServer(err: { code: number; details?: string }): boolean {
  return err.code === GrpcStatus.UNAVAILABLE && /(^|: )No connection established|^Stream refused by server/.test(err.details ?? "");
}

const DEPENDENCY_UNAVAILABLE = () =>
  new AppError("unavailable", "UNAVAILABLE", "A backend service is unavailable.", "A backend service is unavailable; retry shortly.");

/** Turns any thrown value into a gRPC ServiceError; only AppErrors keep their message. */
export function toServiceError(err: unknown): Partial<ServiceError> {
  const known = err instanceof AppError ? err : isUnansweredCall(err) ? DEPENDENCY_UNAVAILABLE() : internalError();
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_METADATA, known.code);
  metadata.set(ERROR_HINT_METADATA, known.hint);
  if (known.details) metadata.set(ERROR_DETAILS_METADATA, Buffer.from(JSON.stringify(known.details)));
  return { code: grpcStatusOf(known.kind), details: known.message, metadata };
}

/**
 * What a gRPC error without our code metadata (raised by grpc-js itself: a connection refused, a
 * deadline) says publicly. Its own text names internal addresses and balancers, so it is never passed on.
 */
const DEFAULT_ERRORS: Partial<Record<GrpcStatus, () => AppError>> = {
  [GrpcStatus.UNAVAILABLE]: DEPENDENCY_UNAVAILABLE,
  [GrpcStatus.DEADLINE_EXCEEDED]: () =>
    new AppError(
      "deadline_exceeded",
      "TIMEOUT",
      "A backend service did not answer in time.",
      "A backend service did not answer in time; retry shortly.",
    ),
};

/** An AppError read back from a gRPC error, with the status it travelled as. */
export class RemoteError extends AppError {
  constructor(
    readonly grpcCode: GrpcStatus,
    error: AppError,
  ) {
    super(error.kind, error.code, error.message, error.hint, error.details);
    this.name = "RemoteError";
  }
}

/** Reads the AppError back from a gRPC error (any shape): kind, code, hint and details. */
export function fromServiceError(err: unknown): RemoteError {
  if (err instanceof RemoteError) return err;
  if (err instanceof AppError) return new RemoteError(grpcStatusOf(err.kind), err);
  const e = err as Partial<ServiceError>;
  const grpcCode = typeof e?.code === "number" ? e.code : GrpcStatus.UNKNOWN;
  const meta = e?.metadata instanceof Metadata ? e.metadata : undefined;
  const code = meta?.get(ERROR_CODE_METADATA)[0]?.toString();
  if (!code) return new RemoteError(grpcCode, (DEFAULT_ERRORS[grpcCode] ?? internalError)());
  const hint = meta?.get(ERROR_HINT_METADATA)[0]?.toString() ?? "";
  const rawDetails = meta?.get(ERROR_DETAILS_METADATA)[0];
  let details: Record<string, unknown> | undefined;
  if (Buffer.isBuffer(rawDetails)) {
    try {
      details = JSON.parse(rawDetails.toString("utf8"));
    } catch {
      details = undefined;
    }
  }
  return new RemoteError(grpcCode, new AppError(errorKindOf(grpcCode), code, e.details ?? code, hint, details));
}
