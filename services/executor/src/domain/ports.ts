// What the execution orchestration needs from the outside world, as small interfaces: the catalog,
// the router, the ledger and the record format of its answers, the settlement bus, metrics and
// tracing (the rails and the providers have their own port files). app.ts wires the real adapters
// in; the domain never imports gRPC, NATS, prom-client or OpenTelemetry.
import type { CallOpts, Logger } from "@agentic/platform";
import type { CatalogCache } from "@agentic/clients";
import type { Route } from "@agentic/proto/catalog/v1";
import type { ExecutionSettled, RouteOutcome } from "@agentic/proto/events/v1";
import type {
  ClaimIdempotencyKeyAndHoldCreditsRequest,
  ClaimIdempotencyKeyAndHoldCreditsResponse,
  ClaimIdempotencyKeyRequest,
  ClaimIdempotencyKeyResponse,
  CompleteExecutionRequest,
  CompleteExecutionResponse,
  CreateQuoteHoldRequest,
  CreateQuoteHoldResponse,
  GetHoldRequest,
  GetHoldResponse,
  GetOwnedResourceRequest,
  GetOwnedResourceResponse,
  GetQuoteHoldRequest,
  GetQuoteHoldResponse,
  HoldCreditsRequest,
  HoldCreditsResponse,
  StoredResult,
} from "@agentic/proto/ledger/v1";
import type { GetRecommendationRequest, GetRecommendationResponse, RecommendRequest, RecommendResponse } from "@agentic/proto/router/v1";
import type { ExecutorSettings, StoredOutcome } from "./execution";
import type { ProviderRegistry } from "./provider-port";
import type { PaymentSettlement, RailPayment, RailSet } from "./rail-port";

/**
 * Catalog reads (cached: the shared CatalogCache), one capability with its routes and execute
 * contract from one catalog version. Unknown domain or capability: NOT_FOUND with the catalog's own code.
 */
export type CatalogPort = Pick<CatalogCache, "capability">;

/** The router's ranking of a capability's routes for one caller. Its errors are AppErrors (the router's own kind and code). */
export interface RouterPort {
  recommend(req: RecommendRequest, opts?: CallOpts): Promise<RecommendResponse>;
  /** A stored recommendation as answered; RECOMMENDATION_NOT_FOUND, _EXPIRED or _STALE (catalog changed) otherwise. */
  getRecommendation(req: GetRecommendationRequest, opts?: CallOpts): Promise<GetRecommendationResponse>;
}

/** The ledger calls of an execution; credits are settled over the bus, never here. Errors are AppErrors (the ledger's own kind and code). */
export interface LedgerPort {
  holdCredits(req: HoldCreditsRequest, opts?: CallOpts): Promise<HoldCreditsResponse>;
  getHold(req: GetHoldRequest, opts?: CallOpts): Promise<GetHoldResponse>;
  claimIdempotencyKey(req: ClaimIdempotencyKeyRequest, opts?: CallOpts): Promise<ClaimIdempotencyKeyResponse>;
  /** The claim and, when it claimed the key, the first hold, in one call; a refused hold is HoldCredits' error and the claim stands. */
  claimIdempotencyKeyAndHoldCredits(
    req: ClaimIdempotencyKeyAndHoldCreditsRequest,
    opts?: CallOpts,
  ): Promise<ClaimIdempotencyKeyAndHoldCreditsResponse>;
  /** Ends the execution with its answer (first completion wins); NOT_FOUND once another request took its key over. */
  completeExecution(req: CompleteExecutionRequest, opts?: CallOpts): Promise<CompleteExecutionResponse>;
  /**
   * The resource if the user owns it; NOT_FOUND (RESOURCE_NOT_FOUND) otherwise, for another user's alike.
   * Optional only for test doubles of other paths: without it, an input naming a resource is refused.
   */
  getOwnedResource?(req: GetOwnedResourceRequest, opts?: CallOpts): Promise<GetOwnedResourceResponse>;
  /** Reserves a quote's price until it is executed or expires; CREDITS_REQUIRED when the balance is short. */
  createQuoteHold(req: CreateQuoteHoldRequest, opts?: CallOpts): Promise<CreateQuoteHoldResponse>;
  /** One quote of the user; QUOTE_NOT_FOUND for an unknown one or another user's. */
  getQuoteHold(req: GetQuoteHoldRequest, opts?: CallOpts): Promise<GetQuoteHoldResponse>;
}

/** The ledger's record of an execution's outcome (the HTTP-level answer it keeps for GET /executions and replays for a key), both ways. */
export interface OutcomeRecords {
  encode(outcome: StoredOutcome): StoredResult;
  /** The outcome a record stores, as replayed: a response is marked `replayed`, an error says it is the key's stored result. */
  decode(record: StoredResult): StoredOutcome;
}

/** Thrown by SettlementBus.settle when JetStream never acknowledged the settlement within the budget. */
export class SettlementUnconfirmedError extends Error {
  constructor(
    readonly holdId: string,
    cause: unknown,
  ) {
    super(`settlement of ${holdId} was not acknowledged by JetStream`, { cause });
    this.name = "SettlementUnconfirmedError";
  }
}

/** The executions stream. */
export interface SettlementBus {
  /**
   * Publishes the capture or release of a hold (Nats-Msg-Id = hold id) and resolves once JetStream
   * has acknowledged it, re-publishing with the same id on failure; throws SettlementUnconfirmedError
   * when the budget runs out.
   */
  settle(event: ExecutionSettled): Promise<void>;
  /** Publishes a route outcome for the router; never throws (route health is advisory). */
  reportOutcome(outcome: RouteOutcome): void;
  /** The largest message the bus takes now (the NATS server's max_payload; it may change on reconnect); absent: unlimited. */
  maxMessageBytes?(): number;
}

/** What one provider attempt ended as, for metrics. */
export interface AttemptObservation {
  routeKey: string;
  /** The route's provider (resend, openai, ...): a vendor's failures are alerted per provider. */
  providerKey: string;
  /** ok, or the error kind (timeout, http_5xx, ...). */
  outcome: string;
  durationMs: number;
}

/** The executor's business metrics. */
export interface ExecutionMetrics {
  attempt(o: AttemptObservation): void;
  holdPlaced(routeKey: string): void;
  holdReleased(routeKey: string): void;
  creditsCharged(routeKey: string, credits: number): void;
  /** A settlement JetStream never acknowledged (the hold will expire). */
  settlementUnconfirmed(routeKey: string): void;
  /**
   * A metered charge that could not be the vendor's usage: its usage priced above the hold (clamped: our
   * loss), no usage at all (the hold was charged), or units above what the route pins (a letter Lob
   * printed on more pages than its price covers: our loss).
   */
  meteredChargeAnomaly(routeKey: string, kind: "usage_over_hold" | "usage_missing" | "units_over_pinned"): void;
  /** A payment a paid rail made to a seller (`settled`, or `unconfirmed` when the seller sent no settlement proof). */
  railPayment(rail: "x402" | "mpp", settlement: PaymentSettlement): void;
}

/** One provider call, as its span describes it when it starts. */
export interface ProviderCall {
  capabilityKey: string;
  routeKey: string;
  providerKey: string;
  networkKey: string;
  /** The route's settlement rail ("" when the catalog names none). */
  settlementRail: string;
  /** The vendor request's URL and method. */
  url: string;
  method: string;
  /** The hold (= attempt) id and the credits it holds. */
  holdId: string;
  heldCredits: number;
}

/** The span of one provider call. */
export interface ProviderCallSpan {
  /** A payment a paid rail made (or sent a credential for) during the call, with its settlement as counted. */
  paid(payment: RailPayment, settlement: PaymentSettlement): void;
  /** The call failed; `summary` is public (never the vendor's text). */
  failed(summary: string): void;
  end(): void;
}

/** Tracing of provider calls: each is the outgoing hop of the caller's trace. */
export interface AttemptTracer {
  /** Runs `fn` with a new span of `call` active (what `fn` calls is traced under it); `fn` ends the span. */
  providerCall<T>(call: ProviderCall, fn: (span: ProviderCallSpan) => Promise<T>): Promise<T>;
}

/** Taking one request of a route's vendor quota for a user: refused past the user's share or the whole quota, until `resetAtMs`. */
export type VendorQuotaTake = { ok: true } | { ok: false; scope: "user" | "route"; resetAtMs: number };

/** The vendor quotas routes run on (Route.vendor_quota), counted across every executor replica. */
export interface VendorQuotaPort {
  /** Takes one request of `route`'s quota for `userId` (a route without a quota: always ok). Never throws. */
  take(route: Route, userId: string): Promise<VendorQuotaTake>;
}

/** Everything the orchestration runs on; app.ts builds it. */
export interface ExecutorDeps {
  catalog: CatalogPort;
  router: RouterPort;
  ledger: LedgerPort;
  /** The ledger's record format of outcomes (idempotency records, GET /executions, settlements). */
  records: OutcomeRecords;
  bus: SettlementBus;
  rails: RailSet;
  providers: ProviderRegistry;
  metrics: ExecutionMetrics;
  tracer: AttemptTracer;
  /** Vendor quotas; without it no quota is counted (unit tests). */
  vendorQuota?: VendorQuotaPort;
  logger: Logger;
  settings: ExecutorSettings;
  /** W3C trace id of the current request, for usage items. */
  traceId: () => string | undefined;
  /** Approvals issued on our side (a broadcast quote a person approves); without it, a capability that issues or requires one is refused. */
  approvals?: ApprovalStore;
}

/** One approval as it is kept: whose it is, what it approves, until when, and whether it was used. */
export interface ApprovalRecord {
  approvalId: string;
  userId: string;
  /** The capability that runs only with it. */
  requiredBy: string;
  /** ApprovalRule.subject of the issuing input. */
  subject: string;
  issuedAt: Date;
  expiresAt: Date;
  /** Set once a requiring call used it. */
  usedAt?: Date;
}

/** Where approvals live, shared by every executor replica. */
export interface ApprovalStore {
  /** Records a new approval (its id is new: never overwrites). */
  issue(record: ApprovalRecord): Promise<void>;
  /** The approval and its revision; undefined when there is none by that id (never issued, or long gone). */
  get(approvalId: string): Promise<{ record: ApprovalRecord; revision: number } | undefined>;
  /** Marks it used if it is still at `revision`: the revision it is used at; undefined when another call changed it first (it used it). */
  markUsed(record: ApprovalRecord, revision: number, usedAt: Date): Promise<number | undefined>;
  /** Makes it unused again if it is still at `revision` (as markUsed left it); false when it changed since. */
  markUnused(record: ApprovalRecord, revision: number): Promise<boolean>;
}
