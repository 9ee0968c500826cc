// The one table from gRPC status to HTTP status, and the ErrorResponse body every failure gets.
import { status as GrpcStatus } from "@grpc/grpc-js";
import type { Response } from "express";
import { currentTraceId, fromServiceError } from "@agentic/platform";

/** HTTP status for each gRPC status a backend may return. */
export const GRPC_TO_HTTP: Record<number, number> = {
  [GrpcStatus.OK]: 200,
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

/** Some public codes carry a more precise HTTP status than their gRPC status gives. */
const CODE_TO_HTTP: Record<string, number> = {
  CREDITS_REQUIRED: 402,
  PROVIDER_ERROR: 502,
  PROVIDER_TIMEOUT: 504,
};

export interface ErrorBody {
  success: false;
  error: string;
  code: string;
  hint: string;
  traceId?: string;
}

/** Builds an ErrorResponse; the trace id lets a user's complaint lead to the trace. */
export function errorBody(code: string, error: string, hint: string): ErrorBody {
  const traceId = currentTraceId();
  return traceId ? { success: false, error, code, hint, traceId } : { success: false, error, code, hint };
}

export function sendError(res: Response, httpStatus: number, code: string, error: string, hint: string): void {
  res.status(httpStatus).json(errorBody(code, error, hint));
}

/** Answers with the public view of an error thrown by a backend gRPC call. */
export function sendBackendError(res: Response, err: unknown): void {
  const remote = fromServiceError(err);
  const httpStatus = CODE_TO_HTTP[remote.code] ?? GRPC_TO_HTTP[remote.grpcCode] ?? 500;
  sendError(res, httpStatus, remote.code, remote.message, remote.hint);
}

/** An error the gateway itself raises (bad query or body); the error handler renders it. */
export class HttpError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** 400 INVALID_INPUT naming the offending field in the hint. */
export function invalidInput(field: string, problem: string, hint = `Fix '${field}' and retry.`): HttpError {
  return new HttpError(400, "INVALID_INPUT", `${field}: ${problem}`, hint);
}
