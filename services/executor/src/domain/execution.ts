// What one execution carries from step to step (the command, the caller's budget, the planned
// routes, the outcome stored for its key) and the settings it runs with: the vocabulary the planner,
// the attempt runner and the orchestration share.
import type { AppError } from "@agentic/platform/core";
import type { Route } from "@agentic/proto/catalog/v1";
import type { ExecuteResponse, NotTriedRoute } from "@agentic/proto/executor/v1";
import type { ClaimIdempotencyKeyRequest } from "@agentic/proto/ledger/v1";
import type { Quote } from "./pricing";
import type { ProviderAdapter, ProviderResult, VendorCalls } from "./provider-port";
import type { ProviderHttpRequest, Rail } from "./rail-port";

/** An execute call as the RPC layer decodes it. */
export interface ExecuteCommand {
  userId: string;
  domainKey: string;
  capabilityId: string;
  /** The JSON body as sent. */
  body: Readonly<Record<string, unknown>>;
  idempotencyKey?: string;
  agentName?: string;
  /** The authenticated API key: the ledger checks its spend policies with each hold. */
  keyId?: string;
  /** The id the caller chose for this execution (so it can look it up without the answer); made up when absent. */
  executionId?: string;
}

/** The caller's time budget (its gRPC deadline). */
export interface CallBudget {
  /** Milliseconds left; Infinity without a deadline. */
  remainingMs(): number;
}

export interface ExecutorSettings {
  /** Deadline of one provider call, in ms. */
  providerTimeoutMs: number;
  /** Provider attempts per execution at most. */
  maxAttempts: number;
  /** Life of a hold, in ms. */
  holdTtlMs: number;
  /** Deadline of each catalog, router and ledger call, in ms. */
  dependencyDeadlineMs: number;
  idempotencyLeaseMs: number;
  idempotencyWaitMs: number;
  /** How long a quote reserves its price, in ms. */
  quoteTtlMs: number;
}

/** One planned attempt: the route, the rail that pays it, its adapter, its quote and the adapter's request, built before anything is held. */
export interface PreparedRoute {
  route: Route;
  rail: Rail;
  adapter: ProviderAdapter;
  /** What the attempt holds (and the input its request was built from). */
  quote: Quote;
  request: ProviderHttpRequest;
  /** The adapter's multi-request flow for this input, when the capability needs one: run in place of `request`. */
  flow?: (vendor: VendorCalls) => Promise<ProviderResult>;
}

/** Makes a used approval unused again, for a call that then ran nothing (its hold was refused): the person's approval still stands. */
export type GiveApprovalBack = () => Promise<void>;

/** Everything an execution carries from planning into its attempts. */
export interface Execution {
  id: string;
  cmd: ExecuteCommand;
  capabilityKey: string;
  input: Record<string, unknown>;
  prepared: PreparedRoute[];
  allowFallback: boolean;
  /** Another route could have run had fallback been allowed (for the PROVIDER_ERROR hint). */
  alternatives: boolean;
  /** The capability's routes left out of `prepared`, with why (the decision's notTried). */
  notTried: NotTriedRoute[];
  /** The quote this execution runs, drawn by its hold; `prepared` is then its one route at its price. */
  quoteId?: string;
  /** Fingerprint of the body without quoteId: what a quote is bound to (computed when read). */
  planHash: string;
  /** Uses the approval the call carries, once, right before it runs (domain/approvals.ts); a price quote never calls it. */
  useApproval?: () => Promise<GiveApprovalBack | undefined>;
  /**
   * The Idempotency-Key its first hold claims, in the same ledger call (set by the executor when nothing
   * before that hold needs the key claimed first). A claim that answers otherwise ends the run with
   * KeyClaimAnswered, before any provider is called.
   */
  claim?: ClaimIdempotencyKeyRequest;
}

/** The outcome of an execution as stored for its key: a response, or the error it ended with. */
export type StoredOutcome = { ok: true; response: ExecuteResponse } | { ok: false; error: AppError };
