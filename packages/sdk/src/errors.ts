// Typed errors of the SDK: every failed call throws an AgenticApiError carrying the API's
// ErrorResponse (code, hint, traceId, executionId) and the HTTP status, as the subclass its status
// means, so callers catch what they can act on (no key, no money, slow down, try later).

/** What the API sends with every failure (its ErrorResponse). */
export interface ErrorResponseBody {
  success?: false;
  error?: string;
  code?: string;
  hint?: string;
  executionId?: string;
  traceId?: string;
}

export interface AgenticApiErrorOptions {
  status?: number;
  code: string;
  hint?: string;
  traceId?: string;
  executionId?: string;
  /** The parsed body of the answer, when there was one. */
  body?: unknown;
  headers?: Headers;
  /** Seconds the API asked to wait (Retry-After). */
  retryAfter?: number;
  cause?: unknown;
}

export class AgenticApiError extends Error {
  /** HTTP status; undefined when no answer arrived (NetworkError). */
  readonly status: number | undefined;
  /** The API's UPPER_SNAKE code, e.g. INVALID_INPUT; the SDK's own for client-side failures (NETWORK_ERROR, CLIENT_TIMEOUT). */
  readonly code: string;
  /** What to do next, as the API says it. */
  readonly hint: string | undefined;
  /** W3C trace id of the request, for support. */
  readonly traceId: string | undefined;
  /** The execution the error is about (read it at GET /executions/{id}). */
  readonly executionId: string | undefined;
  /** Seconds to wait before trying again, when the API said (Retry-After). */
  readonly retryAfter: number | undefined;
  readonly body: unknown;
  readonly headers: Headers | undefined;

  constructor(message: string, opts: AgenticApiErrorOptions) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.status = opts.status;
    this.code = opts.code;
    this.hint = opts.hint;
    this.traceId = opts.traceId;
    this.executionId = opts.executionId;
    this.retryAfter = opts.retryAfter;
    this.body = opts.body;
    this.headers = opts.headers;
  }
}

/** 401: the API key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends AgenticApiError {}

/** 403: the caller may not do this. */
export class PermissionError extends AgenticApiError {}

/** 400, 404, 409, 413, 415 and other 4xx: the request itself must change (read `code` and `hint`). */
export class InvalidRequestError extends AgenticApiError {}

/** 402: the wallet holds fewer credits than the call needs. Nothing was charged. */
export class InsufficientCreditsError extends AgenticApiError {
  /** Credits the call needs (the route's price, or the most a per-token request can cost), when known. */
  readonly requiredCredits: number | undefined;
  /** Credits available in the wallet at the time, when known. */
  readonly balanceCredits: number | undefined;
  /** How many credits are missing (requiredCredits - balanceCredits), when both are known. */
  readonly missingCredits: number | undefined;

  constructor(message: string, opts: AgenticApiErrorOptions) {
    super(message, opts);
    const amounts = creditsOfBody(opts.body) ?? creditsOf402(message, opts.headers);
    this.requiredCredits = amounts.required;
    this.balanceCredits = amounts.balance;
    this.missingCredits =
      amounts.required !== undefined && amounts.balance !== undefined ? Math.max(0, amounts.required - amounts.balance) : undefined;
  }
}

/** 429: over the key's request rate or in-flight cap; wait `retryAfter` seconds. Nothing was done. */
export class RateLimitError extends AgenticApiError {}

/** 5xx: the API or a provider behind it failed (PROVIDER_ERROR, UNAVAILABLE, TIMEOUT, ...). */
export class ServerError extends AgenticApiError {}

/** No answer arrived: the connection failed or was cut. For an execute, the call may have run: retry with the same idempotency key. */
export class NetworkError extends AgenticApiError {}

/** The call's total deadline (timeoutMs) passed before an answer arrived. */
export class TimeoutError extends NetworkError {}

/** Reads Retry-After as seconds (a number of seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The amounts a 402 body states (`requiredCredits`, `balanceCredits`), when it states both. */
function creditsOfBody(body: unknown): { required: number; balance: number } | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { requiredCredits, balanceCredits } = body as Record<string, unknown>;
  return typeof requiredCredits === "number" && typeof balanceCredits === "number"
    ? { required: requiredCredits, balance: balanceCredits }
    : undefined;
}

/**
 * The amounts of a 402 whose body states none (an older API). The executor says them in its message ("Route r costs 10 credits; the
 * wallet has 3 available", or "can cost up to 40 credits" on a per-token route); the x402 challenge
 * (PAYMENT-REQUIRED, when the API takes payments) offers the call's full price, 1000 atomic USDC
 * units per credit, which stands in when the message names no price.
 */
function creditsOf402(message: string, headers: Headers | undefined): { required?: number; balance?: number } {
  const required = /costs? (?:up to )?(\d+) credits?/i.exec(message)?.[1];
  const balance = /wallet has (\d+)(?: credits?)? available/i.exec(message)?.[1] ?? /balance is (\d+)/i.exec(message)?.[1];
  return {
    ...(required !== undefined ? { required: Number(required) } : offeredCredits(headers)),
    ...(balance !== undefined ? { balance: Number(balance) } : {}),
  };
}

function offeredCredits(headers: Headers | undefined): { required?: number } {
  const challenge = headers?.get("payment-required");
  if (!challenge) return {};
  try {
    const decoded = JSON.parse(atob(challenge)) as { accepts?: Array<{ amount?: string }> };
    const amount = Number(decoded.accepts?.[0]?.amount);
    return Number.isFinite(amount) && amount > 0 ? { required: Math.ceil(amount / 1000) } : {};
  } catch {
    return {};
  }
}

/** The error a non-2xx answer means, as its status's subclass, carrying the ErrorResponse fields. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): AgenticApiError {
  const error: ErrorResponseBody = typeof body === "object" && body !== null ? (body as ErrorResponseBody) : {};
  const message = typeof error.error === "string" && error.error !== "" ? error.error : `HTTP ${status}`;
  const opts: AgenticApiErrorOptions = {
    status,
    code: typeof error.code === "string" ? error.code : `HTTP_${status}`,
    ...(typeof error.hint === "string" ? { hint: error.hint } : {}),
    ...(typeof error.traceId === "string" ? { traceId: error.traceId } : {}),
    ...((error.executionId ?? headers.get("execution-id")) ? { executionId: error.executionId ?? headers.get("execution-id")! } : {}),
    ...(retryAfterSeconds(headers) !== undefined ? { retryAfter: retryAfterSeconds(headers) } : {}),
    body,
    headers,
  };
  if (status === 401) return new AuthenticationError(message, opts);
  if (status === 402) return new InsufficientCreditsError(message, opts);
  if (status === 403) return new PermissionError(message, opts);
  if (status === 429) return new RateLimitError(message, opts);
  if (status >= 500) return new ServerError(message, opts);
  return new InvalidRequestError(message, opts);
}
