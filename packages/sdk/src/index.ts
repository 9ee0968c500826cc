// @agentic-api/sdk: the typed client of the Agentic API (fetch only: Node 20+, Deno, Bun, browsers).
export { AgenticApiClient, AgentRouterClient, DEFAULT_AGENTIC_API_BASE_URL, DEFAULT_TIMEOUT_MS } from "./client";
export {
  AgenticApiError,
  AuthenticationError,
  InsufficientCreditsError,
  InvalidRequestError,
  NetworkError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  errorFromResponse,
  type AgenticApiErrorOptions,
  type ErrorResponseBody,
} from "./errors";
export { DEFAULT_RETRY, isRetryable, type RetryOptions } from "./retry";
export type { QueryValue, RawResponse, RequestSpec } from "./transport";
export type * from "./types";
export type * from "./generated/capability-inputs";
export type { components, operations, paths } from "./generated/openapi";
