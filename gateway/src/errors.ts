// The one path from an error to an ErrorResponse. Whatever fails (a refusal of the gateway's own, a
// body express.json() refused, an error a backend sent over gRPC, a bug, a request Node's parser
// refused) is mapped by toErrorResponse, and sent by sendErrorResponse (or by client-errors.ts on a
// bare socket):
// the gateway's own refusals (HttpError) carry their HTTP status; anything else is read as an AppError
// (fromServiceError) and its status comes from the platform's httpStatusOf(kind, code). A backend
// that did not answer (refused, dropped, too slow: a transport failure grpc-js raised, which carries
// none of our metadata) is 503 UNAVAILABLE with Retry-After, never a 500.
import type { Response } from "express";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { AppError, currentTraceId, fromServiceError, httpStatusOf, isUnansweredCall } from "@agentic/platform";

export interface ErrorBody {
  success: false;
  error: string;
  code: string;
  hint: string;
  /** The execution the error is about (e.g. a key's execution still running), to read at GET /executions/{id}. */
  executionId?: string;
  traceId?: string;
  /** 402 CREDITS_REQUIRED: what the call needs, what the wallet has, and the difference, in credits. */
  requiredCredits?: number;
  balanceCredits?: number;
  missingCredits?: number;
  /** What the caller can do to get past this refusal (e.g. how to link an account, which senders it may use). */
  nextActions?: string[];
}

/** The amounts of a CREDITS_REQUIRED refusal, from its details, when both are whole numbers. */
function creditAmounts(code: string, details: Record<string, unknown> | undefined): Partial<ErrorBody> {
  const required = details?.requiredCredits;
  const balance = details?.balanceCredits;
  if (code !== "CREDITS_REQUIRED" || !Number.isSafeInteger(required) || !Number.isSafeInteger(balance)) return {};
  const [r, b] = [required as number, balance as number];
  return { requiredCredits: r, balanceCredits: b, missingCredits: Math.max(0, r - b) };
}

/** What an execution id looks like (`exe_` + base62 today); the path of GET /executions/{id} and error details are held to it. */
export const EXECUTION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A refusal of the gateway's own (bad request, missing key, limits, overload): its HTTP status is fixed where it is raised. */
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

/** Errors raised by express.json() carry a `type` and an HTTP `status`. */
const BODY_ERRORS: Record<string, { status: number; code: string; hint: string }> = {
  "entity.parse.failed": { status: 400, code: "INVALID_JSON", hint: "Send a valid JSON object as the request body." },
  "entity.too.large": { status: 413, code: "PAYLOAD_TOO_LARGE", hint: "Send a smaller body." },
  "encoding.unsupported": { status: 415, code: "UNSUPPORTED_ENCODING", hint: "Send the body as UTF-8 JSON." },
  "charset.unsupported": { status: 415, code: "UNSUPPORTED_ENCODING", hint: "Send the body as UTF-8 JSON." },
  "request.aborted": { status: 400, code: "REQUEST_ABORTED", hint: "The request body was not received in full." },
};

/** Other errors body-parser raises with a client status (e.g. a gzip body that is not gzip) carry `expose`. */
function isExposedClientError(err: unknown): err is { status: number; message: string } {
  if (typeof err !== "object" || err === null) return false;
  const { expose, status } = err as { expose?: unknown; status?: unknown };
  return expose === true && typeof status === "number" && status >= 400 && status <= 499;
}

/** The router's decoding of a path parameter failed (a bare `%` or `%zz`): it raises a URIError with status 400. */
function isUndecodablePath(err: unknown): boolean {
  return (
    err instanceof URIError ||
    (typeof err === "object" &&
      err !== null &&
      (err as { status?: unknown }).status === 400 &&
      /decode param/i.test(String((err as Error).message)))
  );
}

/** The gateway's own reading of an error it raised or a library (express, body-parser) raised for the client. */
function clientError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  const bodyError = BODY_ERRORS[(err as { type?: string } | undefined)?.type ?? ""];
  if (bodyError) return new HttpError(bodyError.status, bodyError.code, (err as Error).message, bodyError.hint);
  if (isUndecodablePath(err))
    return new HttpError(
      400,
      "INVALID_PATH",
      "The path has malformed percent-encoding.",
      "Percent-encode path segments correctly (e.g. %20, not %zz or a bare %).",
    );
  if (isExposedClientError(err))
    return new HttpError(
      err.status,
      "INVALID_BODY",
      err.message,
      "Send the body as plain (or correctly encoded) UTF-8 JSON with Content-Type: application/json.",
    );
  return undefined;
}

/** An error a backend sent over gRPC, or an AppError: what fromServiceError can read without guessing. */
function isServiceError(err: unknown): boolean {
  if (err instanceof AppError) return true;
  return typeof err === "object" && err !== null && typeof (err as { code?: unknown }).code === "number" && "metadata" in err;
}

/** Seconds a client is told to wait (Retry-After) when a backend is unavailable: about one restart of a backend. */
export const BACKEND_RETRY_AFTER_SECONDS = 5;

/** The public code of "a backend is unavailable", whoever says it (the gateway or a backend about its own dependency). */
export const UNAVAILABLE_CODE = "UNAVAILABLE";

/** Names as a sentence starts with them: "The ledger is", "The ledger and the router are", "A backend service is". */
function subject(backends: readonly string[]): string {
  if (backends.length === 0) return "A backend service is";
  const names = backends.map((b) => `the ${b}`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are` : `${names[0]} is`;
  return list.charAt(0).toUpperCase() + list.slice(1);
}

/** 503 UNAVAILABLE with Retry-After, naming the backends that are down (when known); `message` keeps a backend's own words. */
export function backendUnavailable(backends: readonly string[], message?: string): AppError {
  const who = subject(backends);
  return new AppError(
    "unavailable",
    UNAVAILABLE_CODE,
    message ?? `${who} unavailable.`,
    `${who} unavailable; retry after ${BACKEND_RETRY_AFTER_SECONDS} s.`,
    {
      retryAfterSeconds: BACKEND_RETRY_AFTER_SECONDS,
    },
  );
}

/**
 * The AppError a backend's error is read as: a transport failure is that backend being unavailable
 * (but a deadline stays a TIMEOUT, 504: a call that may have done its work is not "unavailable"),
 * anything else is what the backend said.
 */
function readBackendError(err: unknown) {
  if (isUnansweredCall(err) && err.code !== GrpcStatus.DEADLINE_EXCEEDED) return fromServiceError(backendUnavailable([]));
  return fromServiceError(err);
}

/** Whether the error is none the gateway expects (a bug): the caller logs it in full, the client reads INTERNAL. */
export function isUnexpected(err: unknown): boolean {
  return clientError(err) === undefined && !isServiceError(err);
}

/** An error as the client reads it: status, the headers that go with it, and the body. */
export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: ErrorBody;
}

/**
 * The one mapping from an error to what the client reads. Of a backend error's details only these
 * reach the client: `retryAfterSeconds` as Retry-After (when to ask again), `executionId` as the
 * body's executionId and the Execution-Id header (which execution to read at GET /executions/{id}),
 * a CREDITS_REQUIRED refusal's amounts (requiredCredits, balanceCredits, and missingCredits), and
 * `nextActions` (strings saying what the caller can do to get past the refusal).
 */
export function toErrorResponse(err: unknown): ErrorResponse {
  const own = clientError(err);
  if (own) return { status: own.httpStatus, headers: {}, body: errorBody(own.code, own.message, own.hint) };
  const remote = readBackendError(err);
  const headers: Record<string, string> = {};
  // A backend unavailable is worth asking again, and the client is told when, even if the backend did not say.
  const retryAfter = remote.details?.retryAfterSeconds ?? (remote.code === UNAVAILABLE_CODE ? BACKEND_RETRY_AFTER_SECONDS : undefined);
  // Retry-After takes whole seconds; rounding up never invites a retry too early.
  if (typeof retryAfter === "number" && Number.isFinite(retryAfter) && retryAfter >= 0)
    headers["Retry-After"] = String(Math.ceil(retryAfter));
  const rawId = remote.details?.executionId;
  // Checked before use: a header value with a bad character would make setHeader throw.
  const executionId = typeof rawId === "string" && EXECUTION_ID_PATTERN.test(rawId) ? rawId : undefined;
  if (executionId) headers["Execution-Id"] = executionId;
  return {
    status: httpStatusOf(remote.kind, remote.code),
    headers,
    body: {
      ...errorBody(remote.code, remote.message, remote.hint, executionId),
      ...creditAmounts(remote.code, remote.details),
      ...nextActionsOf(remote.details),
    },
  };
}

/** A refusal's next actions, when its details carry a list of strings. */
function nextActionsOf(details: Record<string, unknown> | undefined): Pick<ErrorBody, "nextActions"> {
  const actions = details?.nextActions;
  return Array.isArray(actions) && actions.length > 0 && actions.every((a) => typeof a === "string") ? { nextActions: actions } : {};
}

/** Answers `err` as an ErrorResponse; headers set before (WWW-Authenticate, RateLimit, a payment challenge) stay. */
export function sendErrorResponse(res: Response, err: unknown): void {
  const { status, headers, body } = toErrorResponse(err);
  res.locals.errorCode = body.code;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).json(body);
}

/** The ErrorResponse body; the trace id lets a user's complaint lead to the trace. */
function errorBody(code: string, error: string, hint: string, executionId?: string): ErrorBody {
  const traceId = currentTraceId();
  return { success: false, error, code, hint, ...(executionId ? { executionId } : {}), ...(traceId ? { traceId } : {}) };
}
