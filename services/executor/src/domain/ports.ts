// What the execution orchestration needs from the outside world, as small interfaces: the catalog,
// the router, the ledger, the settlement bus and metrics. app.ts wires the real adapters in; the
// domain never imports grpc or nats.
import type { CallOpts } from "@agentic/platform";
import type { CatalogCache } from "@agentic/clients";
import type { ExecutionSettled, RouteOutcome } from "@agentic/proto/events/v1";
import type {
  ClaimIdempotencyKeyRequest,
  ClaimIdempotencyKeyResponse,
  CompleteExecutionRequest,
  CompleteExecutionResponse,
  GetHoldRequest,
  GetHoldResponse,
  GetOwnedResourceRequest,
  GetOwnedResourceResponse,
  HoldCreditsRequest,
  HoldCreditsResponse,
} from "@agentic/proto/ledger/v1";
import type { RecommendRequest, RecommendResponse } from "@agentic/proto/router/v1";
import type { PaymentSettlement } from "../rails";

/**
 * Catalog reads (cached: the shared CatalogCache), one capability with its routes and execute
 * contract from one catalog version. Unknown domain or capability: NOT_FOUND with the catalog's own code.
 */
export type CatalogPort = Pick<CatalogCache, "capability">;

/** The router's ranking of a capability's routes for one caller. */
export interface RouterPort {
  recommend(req: RecommendRequest, opts?: CallOpts): Promise<RecommendResponse>;
}

/** The ledger calls of an execution; credits are settled over the bus, never here. */
export interface LedgerPort {
  holdCredits(req: HoldCreditsRequest, opts?: CallOpts): Promise<HoldCreditsResponse>;
  getHold(req: GetHoldRequest, opts?: CallOpts): Promise<GetHoldResponse>;
  claimIdempotencyKey(req: ClaimIdempotencyKeyRequest, opts?: CallOpts): Promise<ClaimIdempotencyKeyResponse>;
  /** Ends the execution with its answer (first completion wins); NOT_FOUND once another request took its key over. */
  completeExecution(req: CompleteExecutionRequest, opts?: CallOpts): Promise<CompleteExecutionResponse>;
  /**
   * The resource if the user owns it; NOT_FOUND (RESOURCE_NOT_FOUND) otherwise, for another user's alike.
   * Optional only for test doubles of other paths: without it, an input naming a resource is refused.
   */
  getOwnedResource?(req: GetOwnedResourceRequest, opts?: CallOpts): Promise<GetOwnedResourceResponse>;
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
}

/** What one provider attempt ended as, for metrics. */
export interface AttemptObservation {
  routeKey: string;
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
  /** A per-token charge that could not be the vendor's usage: its usage priced above the hold (clamped: our loss), or no usage at all (the hold was charged). */
  meteredChargeAnomaly(routeKey: string, kind: "usage_over_hold" | "usage_missing"): void;
  /** A payment a paid rail made to a seller (`settled`, or `unconfirmed` when the seller sent no settlement proof). */
  railPayment(rail: "x402" | "mpp", settlement: PaymentSettlement): void;
}
