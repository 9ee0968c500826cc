// The one error type of every service: a kind (what went wrong, in transport-neutral words), a
// stable public UPPER_SNAKE code, a message and hint that may be shown to API clients, and optional
// public details. Pure on purpose: domain code throws these without knowing gRPC or HTTP; the gRPC
// seam (grpc/status.ts) and the HTTP edge (http-status.ts) each turn a kind into their status once.

/** What went wrong. The names follow gRPC's canonical codes, which every transport here maps from. */
export const ERROR_KINDS = [
  "invalid_argument",
  "unauthenticated",
  "permission_denied",
  "not_found",
  "already_exists",
  "aborted",
  "failed_precondition",
  "resource_exhausted",
  "cancelled",
  "unavailable",
  "deadline_exceeded",
  "unimplemented",
  "internal",
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

const KNOWN_KINDS: ReadonlySet<unknown> = new Set(ERROR_KINDS);

/** Whether `value` names an error kind (e.g. one read back from a stored record). */
export const isErrorKind = (value: unknown): value is ErrorKind => KNOWN_KINDS.has(value);

/**
 * An error whose message, code and hint may be shown to API clients.
 * `code` is UPPER_SNAKE and stable; `details` is optional public structured data.
 */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly hint: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }

  /** The same error with more public details (e.g. the execution it happened in). */
  withDetails(extra: Record<string, unknown>, hint = this.hint): AppError {
    return new AppError(this.kind, this.code, this.message, hint, { ...this.details, ...extra });
  }
}

type Details = Record<string, unknown>;

export const invalidArgument = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("invalid_argument", code, message, hint, details);
export const notFound = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("not_found", code, message, hint, details);
export const unauthenticated = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("unauthenticated", code, message, hint, details);
export const permissionDenied = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("permission_denied", code, message, hint, details);
export const alreadyExists = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("already_exists", code, message, hint, details);
export const failedPrecondition = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("failed_precondition", code, message, hint, details);
export const unavailable = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("unavailable", code, message, hint, details);
export const deadlineExceeded = (code: string, message: string, hint: string, details?: Details) =>
  new AppError("deadline_exceeded", code, message, hint, details);

/** What an unexpected failure says publicly: nothing of its own text. */
export const internalError = () =>
  new AppError("internal", "INTERNAL", "internal error", "Retry later; if it persists, report the traceId.");

/**
 * A start-up failure whose message tells an operator everything needed (a bad setting, invalid
 * catalog data): runMain prints it alone, without a stack.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}
