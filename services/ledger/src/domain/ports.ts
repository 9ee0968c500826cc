// What the ledger's domain needs from outside, named here and implemented by the adapters app.ts
// wires in: the store (store/*), the business metrics (metrics.ts) and a logger.
//
// The store: every method is one atomic operation. Its checks and its writes happen together (no
// other operation can interleave between them), which is what keeps balances non-negative and every
// hold settled at most once under concurrency, retries and redelivery. Implementations:
// SqliteLedgerStore (the durable embedded default; in memory for tests) and MongoLedgerStore (a
// cluster); both take the decisions of domain/decide-*.ts and pass the contract suite in store/contract/. Callers pass `now`, so time is the caller's (tests
// control it).
import type { BookedFacts, CreditMovement, HoldExecution } from "./rules";
import type { CreateQuoteCommand, CreateQuoteResult, QuoteRecord, QuoteRefusal } from "./quote";
import type { SpendAttribution, SpendPolicy, SpendRefusal, SpendScope, SpendUsage } from "./spend-policy";
import type { FinishTopUpCommand, StartTopUpCommand, TopUpFinish, TopUpRecord, TopUpStart } from "./top-up";
import type {
  ApiKeyLimits,
  ApiKeyRecord,
  ChargeTotal,
  ClaimOutcome,
  CreditMovementTotal,
  ExecutionRecord,
  Hold,
  JournalEntry,
  OutgoingPayment,
  OwnedResource,
  PaymentDraft,
  PaymentTotal,
  PlatformLoss,
  ResourceDraft,
  SettlementKind,
  StoredResult,
  TimeRange,
  UnchargedWorkDraft,
  UsageDraft,
  UsageItem,
  UsageQuery,
  UsageTotal,
  UsageTotalsQuery,
  Wallet,
} from "./types";

export interface GrantCommand {
  grantId: string;
  userId: string;
  amountCredits: number;
  reason: string;
  now: Date;
}

/** `replayed`: the grant id existed with the same user and amount; nothing was added. */
export type GrantResult =
  { status: "granted" | "replayed"; wallet: Wallet; entry: JournalEntry } | { status: "conflict"; entry: JournalEntry };

export interface CreditMovementCommand extends CreditMovement {
  now: Date;
}

/**
 * `recorded`: the wallet moved, with one journal entry and one usage item. `replayed`: the reference was
 * recorded before with the same user, kind and amount; nothing moved. `conflict`: it was recorded with
 * another user, kind or amount. `insufficient`: a negative amount the available balance does not cover;
 * nothing was written.
 */
export type CreditMovementResult =
  | { status: "recorded" | "replayed"; wallet: Wallet; entry: JournalEntry }
  | { status: "conflict"; entry: JournalEntry }
  | { status: "insufficient"; wallet: Wallet };

export interface HoldCommand {
  holdId: string;
  userId: string;
  amountCredits: number;
  routeKey: string;
  expiresAt: Date;
  now: Date;
  /** The execution this hold pays an attempt of: recorded with the hold, in the same operation. */
  execution?: HoldExecution;
  /** Who spends it: the covering spend policies are read, checked and counted in the same operation. */
  spend?: SpendAttribution;
  /** A quote whose reservation this hold draws (ended in the same operation) instead of the balance. */
  quoteId?: string;
  /**
   * How many uncharged outcomes of vendor work on our own keys (UnchargedWork) the user may have in one
   * UTC day; at it, the hold is refused (`uncharged_limit`). Undefined: no allowance is checked.
   */
  unchargedAllowance?: number;
}

/**
 * `created`: credits moved from balance to held. `replayed`: the hold id existed with the same
 * user and amount (returned as it is now). `conflict`: it existed with another user or amount.
 * `insufficient`: the balance was short; nothing was written. `fenced`: the execution may not start
 * an attempt (its key was taken over, or it ended); nothing was written.
 */
export type HoldResult =
  | { status: "created" | "replayed"; hold: Hold; wallet: Wallet }
  | { status: "conflict"; hold: Hold }
  | { status: "insufficient"; wallet: Wallet }
  | { status: "fenced"; reason: string }
  | { status: "spend_refused"; refusal: SpendRefusal }
  | { status: "quote_refused"; reason: QuoteRefusal }
  | { status: "uncharged_limit"; count: number; limit: number };

export interface SettleCommand {
  holdId: string;
  /** The user the settlement names; a hold of another user is not touched. */
  userId: string;
  kind: SettlementKind;
  /** capture only; clamped to 0..the held amount by the store. */
  capturedCredits: number;
  /** The usage item to record once for this hold (capture and release; expiry has none). */
  usage?: UsageDraft;
  /**
   * The outcome of the hold's execution, when this settlement ends it: recorded in the same
   * operation as the capture or release, so the charge and the answer a retry replays are one fact.
   */
  outcome?: StoredResult;
  /**
   * Resources the attempt created for the user: owned by the hold's user from this operation on, once
   * per (kind, resourceId); the first owner stays.
   */
  resources?: readonly ResourceDraft[];
  /**
   * Payments the attempt made: booked in this operation once per (hold, position). When the hold ends
   * without a charge (a release, a capture after expiry), each is also a platform loss, written here too.
   */
  payments?: readonly PaymentDraft[];
  /**
   * Vendor work on our own key that may be billed although nothing is charged (a release of a direct
   * attempt whose vendor may have acted): booked once per hold, when the hold charged nothing, as a loss at risk.
   */
  unchargedWork?: UnchargedWorkDraft;
  now: Date;
}

/**
 * `applied`: the hold left `held` now (wallet, journal and usage written together).
 * `already_settled`: the hold had already ended (a duplicate, or a settlement after expiry);
 * nothing moved, but a usage item not recorded yet is recorded with the charge the hold really had,
 * and payments, losses and resources not booked yet are booked (a capture after expiry is a loss).
 * `booked`: what this call booked for the first time. `user_mismatch` / `unknown_hold`: nothing was written.
 */
export type SettleResult =
  | { status: "applied"; hold: Hold; wallet: Wallet; usageRecorded: boolean; booked: BookedFacts }
  | { status: "already_settled"; hold: Hold; usageRecorded: boolean; booked: BookedFacts }
  | { status: "user_mismatch"; hold: Hold }
  | { status: "unknown_hold" };

export interface ClaimCommand {
  userId: string;
  key: string;
  requestHash: string;
  /** The execution to create when the key is free (or taken over). */
  executionId: string;
  capabilityKey: string;
  leaseMs: number;
  /** How long the record lives from its first claim (24 h). */
  retentionMs: number;
  now: Date;
}

/** ClaimIdempotencyKeyAndHoldCredits: the claim, and the first attempt's hold of the execution it creates. */
export interface ClaimHoldCommand {
  claim: ClaimCommand;
  /** The first attempt's hold; its execution is the one the claim creates. */
  hold: HoldCommand;
}

export interface ClaimHoldResult {
  claim: ClaimOutcome;
  /** Decided only when the claim is `claimed`. */
  hold?: HoldResult;
}

export interface CompleteCommand {
  userId: string;
  key: string;
  result: StoredResult;
  now: Date;
}

export type CompleteOutcome = "completed" | "already_completed" | "not_found";

export interface CompleteExecutionCommand {
  userId: string;
  executionId: string;
  result: StoredResult;
  now: Date;
}

export interface AbandonCommand {
  executionId: string;
  /** How long past its lease a running execution with no held hold is left before it is abandoned. */
  graceMs: number;
  now: Date;
}

export interface LedgerStore {
  /** Resolves when the backing store answers (readiness). */
  ping(): Promise<void>;
  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
  /**
   * The identity of the data behind this store: created once with the data and kept with it, so two
   * ledgers on one shared store report the same id and ledgers on separate stores report different ids.
   */
  storeId(): Promise<string>;

  /** Stores a key record; when its hash is already stored, returns that record instead (idempotent). */
  insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** The key `keyId`, revoked or not; null when there is none. */
  getApiKey(keyId: string): Promise<ApiKeyRecord | null>;
  /** Keys of one user, or of everyone when `userId` is undefined; oldest first. */
  listApiKeys(userId?: string): Promise<ApiKeyRecord[]>;
  /** Sets revokedAt once (a second revoke keeps the first time); null when the key id is unknown. */
  revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null>;
  /** Replaces a key's limits (undefined: clears them, the record then has no `limits`); null when the key id is unknown. */
  setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null>;

  getWallet(userId: string): Promise<Wallet>;
  /** Every wallet (audits and tests). */
  listWallets(): Promise<Wallet[]>;
  /** Adds credits once per grant id (journal kind grant), creating the wallet when missing. */
  grant(cmd: GrantCommand): Promise<GrantResult>;
  /** Records an operator's grant, refund or adjustment once per reference: wallet, journal entry and usage item together. */
  moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult>;
  /** Moves credits from balance to held once per hold id (journal kind hold), only if the balance covers it. */
  hold(cmd: HoldCommand): Promise<HoldResult>;
  /** Claims an Idempotency-Key and, only when this call claimed it, places the first hold of its execution: one atomic step (decideClaimHold). */
  claimAndHold(cmd: ClaimHoldCommand): Promise<ClaimHoldResult>;
  getHold(holdId: string): Promise<Hold | null>;
  /** Ends a held hold exactly once (journal kind capture, release or expiry) and records its usage once. */
  settleHold(cmd: SettleCommand): Promise<SettleResult>;
  /** Sets (replaces) the policy of (keyId, agentName, otherAgents); keeps the first createdAt of a policy already there. */
  setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy>;
  /** Removes the policy of (keyId, agentName), or the key's default agent policy (otherAgents); false when there was none. */
  clearSpendPolicy(keyId: string, agentName?: string, otherAgents?: boolean): Promise<boolean>;
  /** The policies of these keys (key-wide and agents'), by key then agent. */
  listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]>;
  /** What the holds in `scope` (a policy's: spendScopeOf), created at or after `since`, have spent (read only). */
  spendUsage(scope: SpendScope, since: Date): Promise<SpendUsage>;
  /** Reserves a quote's credits once per quote id: a reservation hold (no spend attribution) and the quote record together. */
  createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult>;
  /** A quote and its reservation hold, or null. */
  getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null>;
  /** Holds still `held` whose expiresAt is at or before `now`, oldest first. */
  listExpiredHolds(now: Date, limit: number): Promise<Hold[]>;
  /**
   * A user's usage items, newest first (by createdAt, then key: see usagePosition), at most `limit`,
   * those `query` selects. Paging by `query.after` sees every item once, whatever is written meanwhile.
   */
  listUsage(userId: string, limit: number, query?: UsageQuery): Promise<UsageItem[]>;
  /** A user's charges created in [from, to) (of one agent or capability when given), summed per UTC day, capability, route and agent. */
  sumUsage(userId: string, query: UsageTotalsQuery): Promise<UsageTotal[]>;
  /** A user's journal entries, oldest first. */
  listJournal(userId: string): Promise<JournalEntry[]>;

  /**
   * Claims (user, key) for one request; see ClaimOutcome. The key's execution is created here;
   * records past their retention count as absent.
   */
  claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome>;
  /** Ends the execution of a claimed key with its result; the first completion wins. */
  completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome>;
  /** Ends an execution (of its user) with its result; the first completion wins. */
  completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome>;
  getExecution(executionId: string): Promise<ExecutionRecord | null>;
  /** Running executions whose lease ran out `graceMs` ago or more and none of whose holds is held; oldest first. */
  listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]>;
  /** Marks one abandoned (outcome_unknown) if it still is (checked again in the same operation); null when not. */
  abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null>;
  /** How many executions are running past their lease (indeterminate: their outcome is awaited). */
  countIndeterminateExecutions(now: Date): Promise<number>;

  /** The resource with this kind and vendor id, whoever owns it; null when none was recorded. */
  getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null>;
  /** Payments booked in [from, to), oldest first. */
  listPayments(range: TimeRange): Promise<OutgoingPayment[]>;
  /** Platform losses written in [from, to), oldest first. */
  listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]>;
  /** What captures applied in [from, to) charged, per UTC day and route. */
  sumCharges(range: TimeRange): Promise<ChargeTotal[]>;
  /** Payments booked in [from, to), per UTC day, route and settlement state. */
  sumPayments(range: TimeRange): Promise<PaymentTotal[]>;
  /** Journal grants, refunds and adjustments written in [from, to), per UTC day and kind. */
  sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]>;

  /** The top-up of one payment, or null. */
  getTopUp(topUpId: string): Promise<TopUpRecord | null>;
  /** Records a verified payment as pending once per top-up id, or takes over a stale pending attempt (see TopUpStart). */
  startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart>;
  /**
   * Ends a pending top-up once: `credited` adds its credits to the wallet (journal kind grant, reason
   * top_up, reference the top-up id) in the same operation; `failed` moves nothing.
   */
  finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish>;
  /** Pending top-ups last attempted at or before `staleBefore`, oldest first (for reconciliation). */
  listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]>;
}

/** What one settlement delivery came to: the store's answer, a poison message, or a failed write. */
export type SettlementHandled = SettleResult["status"] | "poison" | "failed";

/** Why a settlement was given up on and copied to executions.dead. */
export type DeadLetterReason = "unknown_hold" | "user_mismatch";

/**
 * What one top-up request came to: credited, replayed, invalid (refused before anything was written),
 * failed (the facilitator refused to settle), pending (settlement outcome unknown), unverified (the
 * facilitator did not answer a verify).
 */
export type TopUpHandled = "credited" | "replayed" | "invalid" | "failed" | "pending" | "unverified";

/** The ledger's business facts, one method each; metrics.ts turns them into Prometheus series. */
export interface LedgerMetrics {
  /** A settlement delivery was handled (a capture retried while its hold is unknown counts once per delivery, as failed does). */
  settlementHandled(result: SettlementHandled): void;
  /** A settlement was copied to executions.dead and terminated: a capture that will not be charged as published. */
  settlementDeadLettered(reason: DeadLetterReason): void;
  /** An applied capture charged `credits`. */
  creditsCharged(credits: number): void;
  /** A capture arrived after its hold had expired: work done and not charged. */
  lateCapture(): void;
  /** What one settlement booked for the first time (outgoing payments, platform losses). */
  booked(facts: BookedFacts): void;
  /** Whether another ledger on this NATS announces a different store (true) or not (false). */
  storeIdentityConflict(conflict: boolean): void;
  /** The expiry sweeper released `count` holds. */
  holdsExpired(count: number): void;
  /** `count` executions abandoned mid-call were marked outcome_unknown. */
  executionsAbandoned(count: number): void;
  /** How many executions run past their lease now (their outcome awaited). */
  executionsIndeterminate(count: number): void;
  /** A top-up request was handled. */
  topUp(result: TopUpHandled): void;
  /** A paid top-up added `credits` to a wallet. */
  topUpCredited(credits: number): void;
  /** A spend policy refused a hold (nothing was held): which code, and which limit. */
  spendRefused(code: SpendRefusal["code"], limit: SpendRefusal["limit"]): void;
}

/** The few logger methods the domain uses (pino's Logger satisfies it). */
export interface DomainLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
