// A LedgerStore made of one part per aggregate: the SQLite and MongoDB stores extend it with their
// parts (keys, money, spend, quotes, executions, top-ups, books) and their own ping, close and store
// id; every other method is the part's, named once here.
import type {
  AbandonCommand,
  ClaimCommand,
  CompleteCommand,
  CompleteExecutionCommand,
  CompleteOutcome,
  CreditMovementCommand,
  CreditMovementResult,
  GrantCommand,
  GrantResult,
  HoldCommand,
  HoldResult,
  LedgerStore,
  SettleCommand,
  SettleResult,
} from "../domain/ports";
import type { ClaimHoldCommand, ClaimHoldResult } from "../domain/decide-claim-hold";
import type { CreateQuoteCommand, CreateQuoteResult, QuoteRecord } from "../domain/quote";
import type { SpendPolicy, SpendScope, SpendUsage } from "../domain/spend-policy";
import type { FinishTopUpCommand, StartTopUpCommand, TopUpFinish, TopUpRecord, TopUpStart } from "../domain/top-up";
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
  PaymentTotal,
  PlatformLoss,
  TimeRange,
  UsageItem,
  UsageQuery,
  UsageTotal,
  UsageTotalsQuery,
  Wallet,
} from "../domain/types";

type Methods<K extends keyof LedgerStore> = Pick<LedgerStore, K>;

/** The parts a store is made of, each the methods of one aggregate. */
export interface LedgerStoreParts {
  keys: Methods<"insertApiKey" | "findApiKeyByHash" | "getApiKey" | "listApiKeys" | "revokeApiKey" | "setApiKeyLimits">;
  money: Methods<
    | "getWallet"
    | "listWallets"
    | "grant"
    | "moveCredits"
    | "hold"
    | "claimAndHold"
    | "getHold"
    | "settleHold"
    | "listExpiredHolds"
    | "listJournal"
  >;
  spend: Methods<"setSpendPolicy" | "clearSpendPolicy" | "listSpendPolicies" | "spendUsage">;
  quotes: Methods<"createQuote" | "getQuote">;
  executions: Methods<
    | "claimIdempotencyKey"
    | "completeIdempotencyKey"
    | "completeExecution"
    | "getExecution"
    | "listAbandonedExecutions"
    | "abandonExecution"
    | "countIndeterminateExecutions"
  >;
  topUps: Methods<"getTopUp" | "startTopUp" | "finishTopUp" | "listStalePendingTopUps">;
  books: Methods<
    "listUsage" | "getOwnedResource" | "listPayments" | "listPlatformLosses" | "sumCharges" | "sumPayments" | "sumCreditMovements"
  >;
  usageSummary: Methods<"sumUsage">;
}

export abstract class PartsLedgerStore implements LedgerStore {
  private readonly keys: LedgerStoreParts["keys"];
  private readonly money: LedgerStoreParts["money"];
  private readonly spend: LedgerStoreParts["spend"];
  private readonly quotes: LedgerStoreParts["quotes"];
  private readonly executions: LedgerStoreParts["executions"];
  private readonly topUps: LedgerStoreParts["topUps"];
  private readonly books: LedgerStoreParts["books"];
  private readonly usageSummary: LedgerStoreParts["usageSummary"];

  protected constructor(parts: LedgerStoreParts) {
    ({
      keys: this.keys,
      money: this.money,
      spend: this.spend,
      quotes: this.quotes,
      executions: this.executions,
      topUps: this.topUps,
      books: this.books,
      usageSummary: this.usageSummary,
    } = parts);
  }

  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
  abstract storeId(): Promise<string>;

  insertApiKey(record: ApiKeyRecord): Promise<{ status: "created" | "exists"; record: ApiKeyRecord }> {
    return this.keys.insertApiKey(record);
  }
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.keys.findApiKeyByHash(keyHash);
  }
  getApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    return this.keys.getApiKey(keyId);
  }
  listApiKeys(userId?: string): Promise<ApiKeyRecord[]> {
    return this.keys.listApiKeys(userId);
  }
  revokeApiKey(keyId: string, now: Date): Promise<ApiKeyRecord | null> {
    return this.keys.revokeApiKey(keyId, now);
  }
  setApiKeyLimits(keyId: string, limits: ApiKeyLimits | undefined): Promise<ApiKeyRecord | null> {
    return this.keys.setApiKeyLimits(keyId, limits);
  }

  getWallet(userId: string): Promise<Wallet> {
    return this.money.getWallet(userId);
  }
  listWallets(): Promise<Wallet[]> {
    return this.money.listWallets();
  }
  grant(cmd: GrantCommand): Promise<GrantResult> {
    return this.money.grant(cmd);
  }
  moveCredits(cmd: CreditMovementCommand): Promise<CreditMovementResult> {
    return this.money.moveCredits(cmd);
  }
  hold(cmd: HoldCommand): Promise<HoldResult> {
    return this.money.hold(cmd);
  }
  claimAndHold(cmd: ClaimHoldCommand): Promise<ClaimHoldResult> {
    return this.money.claimAndHold(cmd);
  }
  getHold(holdId: string): Promise<Hold | null> {
    return this.money.getHold(holdId);
  }
  settleHold(cmd: SettleCommand): Promise<SettleResult> {
    return this.money.settleHold(cmd);
  }
  listExpiredHolds(now: Date, limit: number): Promise<Hold[]> {
    return this.money.listExpiredHolds(now, limit);
  }
  listJournal(userId: string): Promise<JournalEntry[]> {
    return this.money.listJournal(userId);
  }

  setSpendPolicy(policy: SpendPolicy): Promise<SpendPolicy> {
    return this.spend.setSpendPolicy(policy);
  }
  clearSpendPolicy(keyId: string, agentName?: string, otherAgents?: boolean): Promise<boolean> {
    return this.spend.clearSpendPolicy(keyId, agentName, otherAgents);
  }
  listSpendPolicies(keyIds: readonly string[]): Promise<SpendPolicy[]> {
    return this.spend.listSpendPolicies(keyIds);
  }
  spendUsage(scope: SpendScope, since: Date): Promise<SpendUsage> {
    return this.spend.spendUsage(scope, since);
  }

  createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult> {
    return this.quotes.createQuote(cmd);
  }
  getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null> {
    return this.quotes.getQuote(quoteId);
  }

  claimIdempotencyKey(cmd: ClaimCommand): Promise<ClaimOutcome> {
    return this.executions.claimIdempotencyKey(cmd);
  }
  completeIdempotencyKey(cmd: CompleteCommand): Promise<CompleteOutcome> {
    return this.executions.completeIdempotencyKey(cmd);
  }
  completeExecution(cmd: CompleteExecutionCommand): Promise<CompleteOutcome> {
    return this.executions.completeExecution(cmd);
  }
  getExecution(executionId: string): Promise<ExecutionRecord | null> {
    return this.executions.getExecution(executionId);
  }
  listAbandonedExecutions(now: Date, graceMs: number, limit: number): Promise<ExecutionRecord[]> {
    return this.executions.listAbandonedExecutions(now, graceMs, limit);
  }
  abandonExecution(cmd: AbandonCommand): Promise<ExecutionRecord | null> {
    return this.executions.abandonExecution(cmd);
  }
  countIndeterminateExecutions(now: Date): Promise<number> {
    return this.executions.countIndeterminateExecutions(now);
  }

  getTopUp(topUpId: string): Promise<TopUpRecord | null> {
    return this.topUps.getTopUp(topUpId);
  }
  startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart> {
    return this.topUps.startTopUp(cmd);
  }
  finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish> {
    return this.topUps.finishTopUp(cmd);
  }
  listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]> {
    return this.topUps.listStalePendingTopUps(staleBefore, limit);
  }

  listUsage(userId: string, limit: number, query?: UsageQuery): Promise<UsageItem[]> {
    return this.books.listUsage(userId, limit, query);
  }
  sumUsage(userId: string, query: UsageTotalsQuery): Promise<UsageTotal[]> {
    return this.usageSummary.sumUsage(userId, query);
  }
  getOwnedResource(kind: string, resourceId: string): Promise<OwnedResource | null> {
    return this.books.getOwnedResource(kind, resourceId);
  }
  listPayments(range: TimeRange): Promise<OutgoingPayment[]> {
    return this.books.listPayments(range);
  }
  listPlatformLosses(range: TimeRange): Promise<PlatformLoss[]> {
    return this.books.listPlatformLosses(range);
  }
  sumCharges(range: TimeRange): Promise<ChargeTotal[]> {
    return this.books.sumCharges(range);
  }
  sumPayments(range: TimeRange): Promise<PaymentTotal[]> {
    return this.books.sumPayments(range);
  }
  sumCreditMovements(range: TimeRange): Promise<CreditMovementTotal[]> {
    return this.books.sumCreditMovements(range);
  }
}
