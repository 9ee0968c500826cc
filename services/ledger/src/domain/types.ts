// The ledger's records, as the domain and the stores see them (plain data; dates are Date).
// All amounts are integer credits (1000 credits = 1 USD).

/** A user's wallet. A user without one has balance 0 and nothing held. */
export interface Wallet {
  userId: string;
  /** Credits that can be held now; never negative. */
  balanceCredits: number;
  /** Credits reserved by open holds (not part of balanceCredits); never negative. */
  heldCredits: number;
}

/** held → captured | released | expired; the three end states are final. */
export type HoldState = "held" | "captured" | "released" | "expired";

/** How a hold ends: the executor's capture or release, or the sweeper's expiry. */
export type SettlementKind = "capture" | "release" | "expiry";

export interface Hold {
  holdId: string;
  userId: string;
  amountCredits: number;
  state: HoldState;
  /** Credits finally charged; 0 unless captured. */
  capturedCredits: number;
  createdAt: Date;
  expiresAt: Date;
  routeKey: string;
  settledAt?: Date;
  /** The execution this hold pays an attempt of, when the executor named one. */
  executionId?: string;
  /** Who spent it (the spend policies it counts against); absent on quote reservations and older holds. */
  keyId?: string;
  agentName?: string;
  capabilityKey?: string;
}

/** What an operator records on a wallet besides executions (RecordCreditMovement): each is one journal entry. */
export type CreditMovementKind = "grant" | "refund" | "adjustment";
export const CREDIT_MOVEMENT_KINDS: readonly CreditMovementKind[] = ["grant", "refund", "adjustment"];

export type JournalKind = "hold" | SettlementKind | CreditMovementKind;

/**
 * One credit movement; never changed or deleted. `amountCredits` is the signed change of the
 * available balance, `heldDeltaCredits` the signed change of the held credits, so a wallet's
 * balance is the sum of its entries' amounts and its held credits the sum of their held deltas.
 */
export interface JournalEntry {
  entryId: string;
  userId: string;
  kind: JournalKind;
  amountCredits: number;
  heldDeltaCredits: number;
  /** grant id (or an operator's reference) for grants, refunds and adjustments; hold id for the others. */
  referenceId: string;
  createdAt: Date;
  /** Why (grants, refunds, adjustments), when one was given. */
  reason?: string;
  /** Operators' movements: the verified caller identity, and the name of the person it gave. */
  operator?: string;
  operatorName?: string;
}

/** What the executor reports about one execution (agentic.events.v1.ExecutionUsage). */
export interface UsageDraft {
  usageId: string;
  createdAt: Date;
  productKey: string;
  capabilityKey: string;
  routeKey: string;
  provider: string;
  networkKey: string;
  /** succeeded or failed. */
  status: string;
  durationMs: number;
  agentName?: string;
  traceId: string;
  errorCode?: string;
  /** Tokens the vendor reported for the call (model routes); a per-token route's charge comes from them. */
  inputTokens?: number;
  outputTokens?: number;
  /** The executor's decision for the execution, a JSON object as text. */
  decisionJson?: string;
}

/**
 * What a usage item records: `charge`, an execution (one per settled hold), or a credit movement on
 * the record (an operator's grant, refund or adjustment; `top_up`, a user's payment).
 */
export type UsageKind = "charge" | CreditMovementKind | "top_up";
export const USAGE_KINDS: readonly UsageKind[] = ["charge", "grant", "refund", "adjustment", "top_up"];

/**
 * One item of a user's money history. A charge: recorded once per settled hold, with the executor's
 * fields (UsageDraft). A credit movement: recorded with its journal entry; usageId is the entry id, the
 * execution fields are empty ("", 0) and the movement's own fields are set.
 */
export interface UsageItem extends UsageDraft {
  kind: UsageKind;
  userId: string;
  /** The hold that paid for it (charges); absent on credit movements. */
  holdId?: string;
  /** What the hold's settlement charged (0 when released, or when a capture came after expiry; 0 for movements). */
  creditsCharged: number;
  /** Credit movements: the signed credits added to the available balance, the reference, why, and who. */
  amountCredits?: number;
  reference?: string;
  reason?: string;
  operator?: string;
  operatorName?: string;
}

/** Where an item sits in a user's usage, newest first: by createdAt, then by its key (hold id, or the movement's entry id). */
export interface UsagePosition {
  createdAt: Date;
  key: string;
}

/** Which usage items to list: all filters are optional and combine. */
export interface UsageQuery {
  /** Only items strictly after this position in newest-first order (the previous page's last item). */
  after?: UsagePosition;
  /** createdAt in [from, to). */
  from?: Date;
  to?: Date;
  agentName?: string;
  capabilityKey?: string;
  kind?: UsageKind;
}

/** An API key as stored: never the key itself, only its SHA-256 and a short visible prefix. */
export interface ApiKeyRecord {
  keyId: string;
  userId: string;
  /** Lowercase hex SHA-256 of the full key. */
  keyHash: string;
  /** The first characters of the key ("aak_3fQx"), for listing. */
  prefix: string;
  name: string;
  createdAt: Date;
  revokedAt?: Date;
  /** The key's own request limits (the gateway enforces them); absent: the gateway's defaults. */
  limits?: ApiKeyLimits;
  /** The agent the key was issued for (normalized): every request of the key is this agent's. */
  agentName?: string;
  /** The agents (normalized) a request of the key must name one of; absent: any, or none. */
  agentNames?: string[];
}

/** Per-key request limits; an absent field is the gateway's configured default. */
export interface ApiKeyLimits {
  requestsPerSecond?: number;
  burst?: number;
  maxInFlight?: number;
}

/** A stored HTTP-level result of an idempotent request (status and JSON body). */
export interface StoredResult {
  httpStatus: number;
  body?: Record<string, unknown>;
}

/**
 * Where an execution stands. `claimed`: an Idempotency-Key was claimed and nothing was held yet, so
 * no provider was reached; a claim whose lease ran out may be taken over by a retry. `running`: a
 * hold was placed for an attempt, so a provider may have been reached: the execution is never run
 * again, whatever happens to its executor. `succeeded` / `failed`: its outcome is recorded (and is
 * what a retry under its key replays). `outcome_unknown`: it was abandoned mid-call (its executor
 * went away) and every hold of it ended without an outcome: nothing was charged, and the provider
 * may or may not have acted.
 */
export type ExecutionState = "claimed" | "running" | "succeeded" | "failed" | "outcome_unknown";

/** The ended states: an execution in one of them never changes again. */
export const FINAL_EXECUTION_STATES: readonly ExecutionState[] = ["succeeded", "failed", "outcome_unknown"];

/**
 * One execution as the ledger keeps it, in the same store and the same atomic operations as its
 * holds: an execution under an Idempotency-Key is that key's record (one per user and key).
 */
export interface ExecutionRecord {
  executionId: string;
  userId: string;
  capabilityKey: string;
  /** The Idempotency-Key it runs under, and the hash of the request that claimed it. */
  idempotencyKey?: string;
  requestHash?: string;
  state: ExecutionState;
  /** Until then the executor that owns it is presumed alive; a `running` execution past it is indeterminate. */
  leaseExpiresAt: Date;
  createdAt: Date;
  /** createdAt + retention (24 h); afterwards the record counts as absent. */
  expiresAt: Date;
  completedAt?: Date;
  /** The holds of its attempts, oldest first. */
  holdIds: string[];
  /** The answer it ended with (keyed executions keep the whole body, for replays). */
  result?: StoredResult;
}

export type ClaimOutcome =
  | { state: "claimed"; executionId: string }
  /** `started`: a hold was placed, so the execution will never be run again (only its outcome awaited). */
  | { state: "in_progress"; executionId: string; leaseExpiresAt: Date; started: boolean }
  | { state: "completed"; executionId: string; result: StoredResult }
  | { state: "conflict" };

/** A vendor resource an execution created on the platform's account for its user (ExecutionSettled.resources). */
export interface ResourceDraft {
  /** e.g. "email.inbox". */
  kind: string;
  resourceId: string;
  /** The provider holding it; only its routes can use it. */
  provider: string;
}

/** A resource as owned: one owner per (kind, resourceId), recorded with the capture that created it. */
export interface OwnedResource extends ResourceDraft {
  userId: string;
  holdId: string;
  executionId?: string;
  createdAt: Date;
}

/**
 * What became of a payment: `settled` (the seller confirmed it), `unconfirmed` (a 2xx answer without a
 * proof: counted as paid), `rejected` (the seller refused the signed authorization) or `unknown` (it was
 * sent and no answer came). The last two are not known to be collected but stay collectable until the
 * authorization expires.
 */
export type PaymentSettlement = "settled" | "unconfirmed" | "rejected" | "unknown";
export const PAYMENT_SETTLEMENTS: readonly PaymentSettlement[] = ["settled", "unconfirmed", "rejected", "unknown"];
/** Settlements counted as money paid out. */
export const PAID_SETTLEMENTS: readonly PaymentSettlement[] = ["settled", "unconfirmed"];

/** A payment the executor's wallet made to a seller for one attempt (ExecutionSettled.payments). */
export interface PaymentDraft {
  rail: "x402" | "mpp";
  /** CAIP-2, e.g. eip155:84532. */
  network: string;
  asset: string;
  /** Atomic units of the asset, as a decimal string. */
  amountAtomic: string;
  /** The amount in micro-USD (1 credit = 1000), rounded up by the executor. */
  amountMicroUsd: number;
  payTo: string;
  payer: string;
  /** The seller's receipt or transaction reference, when it gave one. */
  reference?: string;
  settlement: PaymentSettlement;
}

/** A payment as booked: once per (hold, position in its settlement), with the hold's route and execution. */
export interface OutgoingPayment extends PaymentDraft {
  /** `<holdId>/<position>`. */
  paymentId: string;
  holdId: string;
  userId: string;
  executionId?: string;
  routeKey: string;
  /** When the settlement carrying it was applied. */
  bookedAt: Date;
}

export type PlatformLossReason =
  | "paid_attempt_released"
  | "seller_rejected_signed_payment"
  | "payment_outcome_unknown"
  | "capture_after_hold_expired"
  | "paid_not_charged"
  | "vendor_work_not_charged";

/** A payment the platform made and did not charge for; at most one per payment (keyed by its id). */
export interface PlatformLoss {
  paymentId: string;
  reason: PlatformLossReason;
  amountMicroUsd: number;
  holdId: string;
  executionId?: string;
  userId: string;
  routeKey: string;
  /** The payment's rail; "direct" for vendor work on the platform's own key (no payment: see UnchargedWork). */
  rail: PaymentDraft["rail"] | "direct";
  network: string;
  amountAtomic: string;
  reference?: string;
  settlement: PaymentSettlement;
  /** The failed attempt's usage error code, when it failed. */
  errorCode?: string;
  createdAt: Date;
}

/** A half-open time range [from, to): the reconciliation's UTC days. */
export interface TimeRange {
  from: Date;
  to: Date;
}

/** A user's charges of one UTC day (YYYY-MM-DD, by the usage item's time), capability, route and agent. */
export interface UsageTotal {
  day: string;
  capabilityKey: string;
  routeKey: string;
  agentName?: string;
  credits: number;
  count: number;
}

/** Which charges a usage summary sums: a range, optionally one agent or capability. */
export interface UsageTotalsQuery extends TimeRange {
  agentName?: string;
  capabilityKey?: string;
}

/** Captures of one route on one UTC day (YYYY-MM-DD, by when they were applied). */
export interface ChargeTotal {
  day: string;
  routeKey: string;
  chargedCredits: number;
  captures: number;
}

/** Journal movements of one kind (grant, refund, adjustment) on one UTC day. */
export interface CreditMovementTotal {
  day: string;
  kind: CreditMovementKind;
  movements: number;
  /** Sum of the positive amounts, and of the negative ones as a positive number. */
  addedCredits: number;
  removedCredits: number;
}

/** Payments of one route, day and settlement state (by when they were booked). */
export interface PaymentTotal {
  day: string;
  routeKey: string;
  settlement: PaymentSettlement;
  amountMicroUsd: number;
  payments: number;
}

/**
 * Work a vendor may bill the platform for on its own key (a direct route) that the caller was not
 * charged, as the executor reports it with a release: why, and what it may cost.
 */
export interface UnchargedWorkDraft {
  /** The attempt's usage error code: PROVIDER_TIMEOUT, PROVIDER_ERROR. */
  reason: string;
  /** Estimated from the route's price for the attempt, in micro-USD. */
  estimatedCostMicroUsd: number;
}

/** Uncharged vendor work as booked: once per hold, counted per user and UTC day against the allowance. */
export interface UnchargedWork extends UnchargedWorkDraft {
  holdId: string;
  userId: string;
  executionId?: string;
  routeKey: string;
  /** UTC day (YYYY-MM-DD) of createdAt: the allowance's day. */
  day: string;
  createdAt: Date;
}
