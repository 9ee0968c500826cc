// The ErrorResponse body every failure gets (HTTP status from platform's httpStatusOf).
import type { Response } from "express";
import { currentTraceId, fromServiceError, httpStatusOf } from "@agentic/platform";

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
  const httpStatus = httpStatusOf(remote.grpcCode, remote.code);
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
