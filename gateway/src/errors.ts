// The ErrorResponse body every failure gets (HTTP status from platform's httpStatusOf).
import type { Response } from "express";
import { currentTraceId, fromServiceError, httpStatusOf } from "@agentic/platform";

export interface ErrorBody {
  success: false;
  error: string;
  code: string;
  hint: string;
  /** The execution the error is about (e.g. a key's execution still running), to read at GET /executions/{id}. */
  executionId?: string;
  traceId?: string;
}

/** What an execution id looks like (`exe_` + base62 today); the path of GET /executions/{id} and error details are held to it. */
export const EXECUTION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** Builds an ErrorResponse; the trace id lets a user's complaint lead to the trace. */
export function errorBody(code: string, error: string, hint: string, executionId?: string): ErrorBody {
  const traceId = currentTraceId();
  return { success: false, error, code, hint, ...(executionId ? { executionId } : {}), ...(traceId ? { traceId } : {}) };
}

export function sendError(res: Response, httpStatus: number, code: string, error: string, hint: string): void {
  res.status(httpStatus).json(errorBody(code, error, hint));
}

/**
 * Answers with the public view of an error thrown by a backend gRPC call. Of its details only two
 * reach the client: `retryAfterSeconds` as Retry-After (when to ask again), and `executionId` as the
 * body's executionId and the Execution-Id header (which execution to read at GET /executions/{id}).
 */
export function sendBackendError(res: Response, err: unknown): void {
  const remote = fromServiceError(err);
  const httpStatus = httpStatusOf(remote.kind, remote.code);
  const retryAfter = remote.details?.retryAfterSeconds;
  if (typeof retryAfter === "number" && Number.isFinite(retryAfter) && retryAfter >= 0) {
    // Retry-After takes whole seconds; rounding up never invites a retry too early.
    res.setHeader("Retry-After", String(Math.ceil(retryAfter)));
  }
  const rawId = remote.details?.executionId;
  // Checked before use: a header value with a bad character would make setHeader throw.
  const executionId = typeof rawId === "string" && EXECUTION_ID_PATTERN.test(rawId) ? rawId : undefined;
  if (executionId) res.setHeader("Execution-Id", executionId);
  res.status(httpStatus).json(errorBody(remote.code, remote.message, remote.hint, executionId));
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
