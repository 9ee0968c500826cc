// What the ledger's use cases take and answer beyond the records of types.ts: a settlement to apply,
// an operator's credit movement, a usage page, an execution's view, the reconciliation.
import type { CreditMovementRowData, ReconciliationRowData, ReconciliationTotalsData } from "./rules";
import type {
  ExecutionRecord,
  Hold,
  PaymentDraft,
  PlatformLoss,
  ResourceDraft,
  SettlementKind,
  StoredResult,
  UnchargedWorkDraft,
  UsageDraft,
} from "./types";

/** A settlement to apply, as decoded from agentic.events.v1.ExecutionSettled. */
export interface Settlement {
  holdId: string;
  userId: string;
  kind: Exclude<SettlementKind, "expiry">;
  capturedCredits: number;
  usage?: UsageDraft;
  /** The execution's answer, when this settlement ends it. */
  outcome?: StoredResult;
  /** Resources the attempt created for the user (captures). */
  resources?: ResourceDraft[];
  /** Payments the attempt made to sellers (x402, MPP), whatever its outcome. */
  payments?: PaymentDraft[];
  /** Vendor work on our own key that may be billed although nothing is charged (a direct attempt's release). */
  unchargedWork?: UnchargedWorkDraft;
}

/** The reconciliation of a range of UTC days (GetReconciliation). */
export interface Reconciliation {
  fromDate: string;
  toDate: string;
  rows: ReconciliationRowData[];
  losses: PlatformLoss[];
  totals: ReconciliationTotalsData;
  /** Grants, refunds and adjustments per UTC day and kind, by day then kind. */
  creditMovements: CreditMovementRowData[];
}

/** An operator's grant, refund or adjustment, as RecordCreditMovement asks for it. */
export interface CreditMovementRequest {
  kind: string;
  userId: string;
  amountCredits: number;
  reason: string;
  reference: string;
  /** The name the operator gave (may be empty). */
  operatorName: string;
  /** The verified identity of the caller. */
  operator: string;
}

/** Which page of usage to list (ListUsage): every field optional. */
export interface UsagePageRequest {
  cursor?: string;
  from?: Date;
  to?: Date;
  agentName?: string;
  capabilityKey?: string;
  kind?: string;
}

/** Where an execution stands, as GetExecution answers: its record, its holds and what they charged. */
export interface ExecutionView {
  execution: ExecutionRecord;
  /** Running past its lease: its outcome is awaited (then reconciled). */
  indeterminate: boolean;
  holds: Hold[];
  creditsCharged: number;
}

/** A hold as HoldCredits asks for it. */
export interface HoldRequest {
  holdId: string;
  userId: string;
  amountCredits: number;
  ttlMs: number;
  routeKey: string;
  execution?: { executionId: string; capabilityKey: string; idempotencyKey?: string };
  keyId?: string;
  agentName?: string;
  capabilityKey?: string;
  quoteId?: string;
}
