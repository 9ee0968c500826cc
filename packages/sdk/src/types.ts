// The SDK's public types: the API's resources by name (from the generated OpenAPI types, the one
// source), and the requests of the client's methods, with each live capability's input typed by
// its contract (from the generated capability inputs) and a plain object for any other.
import type { components } from "./generated/openapi";
import type { CapabilityExecuteInputs, CapabilityRecommendInputs } from "./generated/capability-inputs";
import type { RetryOptions } from "./retry";

type Schemas = components["schemas"];

export type DomainCatalogEntry = Schemas["DomainCatalogEntry"];
export type CapabilityCatalogEntry = Schemas["CapabilityCatalogEntry"];
export type RouteCatalogEntry = Schemas["RouteCatalogEntry"];
export type CapabilityContract = Schemas["CapabilityContract"];
export type CapabilityOperationContract = Schemas["CapabilityOperationContract"];
export type CapabilityFieldContract = Schemas["CapabilityFieldContract"];
export type RecommendationResponse = Schemas["RecommendationResponse"];
export type RecommendationCandidate = Schemas["RecommendationCandidate"];
export type WorkflowRecommendation = Schemas["WorkflowRecommendation"];
export type GenericExecutionResponse = Schemas["GenericExecutionResponse"];
export type ExecutionStatusResponse = Schemas["ExecutionStatusResponse"];
export type Execution = Schemas["Execution"];
export type WalletResponse = Schemas["WalletResponse"];
export type UsageResponse = Schemas["UsageResponse"];
export type UsageItem = Schemas["UsageItem"];
export type UsageSummaryResponse = Schemas["UsageSummaryResponse"];
export type OverviewResponse = Schemas["OverviewResponse"];
export type ErrorResponse = Schemas["ErrorResponse"];
export type RouteTaskResponse = Schemas["RouteTaskResponse"];
export type RouteTaskMatch = Schemas["RouteTaskMatch"];
export type TaskConstraints = Schemas["TaskConstraints"];
export type { CapabilityExecuteInputs, CapabilityRecommendInputs };

/** `<domainKey>/<capabilityId>` of every capability that was live when the SDK was generated. */
export type LiveCapability = keyof CapabilityExecuteInputs;

/** Input of a capability the SDK has no contract for: the contract's fields as a plain object. */
export type CapabilityInput = Record<string, unknown>;

/** Execute input of `domain`/`capability`: its contract's type when the capability is known, else a plain object. */
export type ExecuteInputOf<D extends string, C extends string> = `${D}/${C}` extends keyof CapabilityExecuteInputs
  ? CapabilityExecuteInputs[`${D}/${C}`]
  : CapabilityInput;

/** Recommend input of `domain`/`capability`, likewise. */
export type RecommendInputOf<D extends string, C extends string> = `${D}/${C}` extends keyof CapabilityRecommendInputs
  ? CapabilityRecommendInputs[`${D}/${C}`]
  : CapabilityInput;

export interface ClientOptions {
  /** The API key (`aak_...`), sent as `Authorization: Bearer`. Keep it server-side: never ship it in browser code. */
  apiKey?: string;
  /** Base URL including the base path, e.g. http://localhost:8080/api/agentic-api (the default). */
  baseUrl?: string;
  /** Total deadline of one call in ms, retries and backoff included (default 60000). */
  timeoutMs?: number;
  /** Retries of calls that a repeat can fix (network errors, 5xx, an execution still in progress). */
  retry?: RetryOptions;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** Per-call options every method takes. */
export interface CallOptions {
  /** Total deadline of this call in ms (default: the client's timeoutMs). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A task in words for intent routing: which capability does it? */
export interface RouteRequest extends CallOptions {
  /** What you want done, in words (1-2000 characters). */
  task: string;
  /** Matches to list, 1-20 (default 5). */
  limit?: number;
  /** Only this domain's capabilities. */
  domain?: string;
}

export interface RecommendRequest<D extends string = string, C extends string = string> extends CallOptions {
  domain: D;
  capability: C;
  /** The contract's recommend fields (agentName, optimizationPreferences, and the capability's own). */
  input?: RecommendInputOf<D, C>;
  /** Candidates to answer in full, best first (1-200); the rest are counted in candidatesOmitted. Default: all. */
  limit?: number;
}

export interface ExecuteRequest<D extends string = string, C extends string = string> extends CallOptions {
  domain: D;
  capability: C;
  /** The contract's execute fields. */
  input: ExecuteInputOf<D, C>;
  /** Pins one exact route (wins over provider). */
  routeKey?: string;
  /** Pins a provider; its best route runs. */
  provider?: string;
  /** Whether another route may run when the chosen one fails (API default: true unpinned, false pinned). */
  allowFallback?: boolean;
  /** The key every try of this call is sent with (default: a new random UUID per call). Reuse it to retry a call yourself. */
  idempotencyKey?: string;
  /** Sent as Agent-Name: shown in usage items; the router applies this agent's last preferences. */
  agentName?: string;
  /** Retry options of this call. */
  retry?: RetryOptions;
}

/** How an execute was answered, beside its body (on the result's non-enumerable `lastResponse`). */
export interface ExecutionMeta {
  status: number;
  headers: Headers;
  /** The Execution-Id header: read the execution at GET /executions/{id}. */
  executionId: string | undefined;
  /** True when the answer is the stored result of an earlier try with the same idempotency key. */
  replayed: boolean;
  /** The idempotency key every try was sent with. */
  idempotencyKey: string;
  /** Tries it took. */
  attempts: number;
}

export type ExecuteResult = GenericExecutionResponse & { readonly lastResponse: ExecutionMeta };

export interface UsageListOptions extends CallOptions {
  /** Most items returned in all, pages followed as needed (default 20). */
  limit?: number;
  /** Items asked for per request (default: limit, at most 100). */
  pageSize?: number;
  /** Only items created at or after this time. */
  from?: string | Date;
  /** Only items created before this time. */
  to?: string | Date;
  agentName?: string;
  capabilityKey?: string;
  kind?: "charge" | "grant" | "refund" | "adjustment" | "top_up";
}
