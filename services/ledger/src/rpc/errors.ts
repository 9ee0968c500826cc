// Turns domain errors into gRPC statuses with our trailing metadata (code, hint, details).
// Anything else stays unexpected: the platform adapter logs it and answers INTERNAL.
import { status } from "@grpc/grpc-js";
import { AppError, type UnaryHandler } from "@agentic/platform";
import { LedgerError, type LedgerErrorKind } from "../domain/errors";

const STATUS: Record<LedgerErrorKind, status> = {
  invalid_argument: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  not_found: status.NOT_FOUND,
  already_exists: status.ALREADY_EXISTS,
  failed_precondition: status.FAILED_PRECONDITION,
};

export function toAppError(err: unknown): unknown {
  if (!(err instanceof LedgerError)) return err;
  return new AppError(STATUS[err.kind], err.code, err.message, err.hint, err.details);
}

/** Wraps an RPC handler so that LedgerErrors leave as their gRPC status. */
export function withLedgerErrors<Req, Res>(handler: UnaryHandler<Req, Res>): UnaryHandler<Req, Res> {
  return async (request, ctx) => {
    try {
      return await handler(request, ctx);
    } catch (err) {
      throw toAppError(err);
    }
  };
}
