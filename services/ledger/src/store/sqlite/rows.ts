// Rows of the SQLite ledger's tables and the records they read as: times are integer ms since the
// epoch, handed out as fresh Date objects; JSON columns are parsed; NULL is an absent field.
import type { QuoteRecord } from "../../domain/quote";
import type { CapabilityCap, SpendPolicy, SpendReset } from "../../domain/spend-policy";
import type { TopUpRecord } from "../../domain/top-up";
import type {
  ApiKeyLimits,
  ApiKeyRecord,
  ExecutionRecord,
  Hold,
  JournalEntry,
  OutgoingPayment,
  OwnedResource,
  PlatformLoss,
  StoredResult,
  UnchargedWork,
  UsageItem,
  Wallet,
} from "../../domain/types";

export interface WalletRow {
  user_id: string;
  balance_credits: number;
  held_credits: number;
}

export interface HoldRow {
  hold_id: string;
  user_id: string;
  amount_credits: number;
  state: Hold["state"];
  captured_credits: number;
  created_at: number;
  expires_at: number;
  route_key: string;
  settled_at: number | null;
  execution_id: string | null;
  key_id: string | null;
  agent_name: string | null;
  capability_key: string | null;
}

export interface SpendPolicyRow {
  key_id: string;
  agent_name: string;
  other_agents: number;
  budget_credits: number | null;
  reset: SpendReset;
  capability_caps: string;
  max_price_credits: number | null;
  created_at: number;
  updated_at: number;
}

export interface QuoteRow {
  quote_id: string;
  user_id: string;
  key_id: string;
  agent_name: string | null;
  capability_key: string;
  route_key: string;
  amount_credits: number;
  request_hash: string;
  reservation_hold_id: string;
  created_at: number;
  expires_at: number;
  used_by_hold_id: string | null;
}

export interface JournalRow {
  entry_id: string;
  user_id: string;
  kind: JournalEntry["kind"];
  amount_credits: number;
  held_delta_credits: number;
  reference_id: string;
  created_at: number;
  reason: string | null;
  operator: string | null;
  operator_name: string | null;
}

export interface UsageRow {
  kind: UsageItem["kind"];
  hold_id: string | null;
  user_id: string;
  usage_id: string;
  created_at: number;
  product_key: string;
  capability_key: string;
  route_key: string;
  provider: string;
  network_key: string;
  status: string;
  duration_ms: number;
  agent_name: string | null;
  trace_id: string;
  error_code: string | null;
  credits_charged: number;
  input_tokens: number | null;
  output_tokens: number | null;
  amount_credits: number | null;
  reference: string | null;
  reason: string | null;
  operator: string | null;
  operator_name: string | null;
  decision_json: string | null;
}

export interface ApiKeyRow {
  key_id: string;
  user_id: string;
  key_hash: string;
  prefix: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
  limit_rps: number | null;
  limit_burst: number | null;
  limit_in_flight: number | null;
  agent_name: string | null;
  agent_names: string | null; // JSON array
}

export interface ExecutionRow {
  execution_id: string;
  user_id: string;
  capability_key: string;
  idempotency_key: string | null;
  request_hash: string | null;
  state: ExecutionRecord["state"];
  lease_expires_at: number;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
  hold_ids: string;
  result: string | null;
}

export interface TopUpRow {
  top_up_id: string;
  user_id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  pay_to: string;
  amount_atomic: string;
  amount_credits: number;
  state: TopUpRecord["state"];
  created_at: number;
  attempted_at: number;
  attempts: number;
  completed_at: number | null;
  tx_reference: string | null;
  failure_reason: string | null;
  settlement: string | null;
  requirements: string;
  payload: string;
}

export function toTopUp(row: TopUpRow): TopUpRecord {
  return {
    topUpId: row.top_up_id,
    userId: row.user_id,
    network: row.network,
    asset: row.asset,
    payer: row.payer,
    nonce: row.nonce,
    payTo: row.pay_to,
    amountAtomic: row.amount_atomic,
    amountCredits: row.amount_credits,
    state: row.state,
    createdAt: new Date(row.created_at),
    attemptedAt: new Date(row.attempted_at),
    attempts: row.attempts,
    ...(row.completed_at !== null ? { completedAt: new Date(row.completed_at) } : {}),
    ...(row.tx_reference !== null ? { transaction: row.tx_reference } : {}),
    ...(row.failure_reason !== null ? { failureReason: row.failure_reason } : {}),
    ...(row.settlement !== null ? { settlement: row.settlement } : {}),
    requirements: row.requirements,
    payload: row.payload,
  };
}

export function toWallet(row: WalletRow): Wallet {
  return { userId: row.user_id, balanceCredits: row.balance_credits, heldCredits: row.held_credits };
}

export function toHold(row: HoldRow): Hold {
  return {
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    holdId: row.hold_id,
    userId: row.user_id,
    amountCredits: row.amount_credits,
    state: row.state,
    capturedCredits: row.captured_credits,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    routeKey: row.route_key,
    ...(row.settled_at !== null ? { settledAt: new Date(row.settled_at) } : {}),
    ...(row.key_id !== null ? { keyId: row.key_id } : {}),
    ...(row.agent_name !== null ? { agentName: row.agent_name } : {}),
    ...(row.capability_key !== null ? { capabilityKey: row.capability_key } : {}),
  };
}

export function toSpendPolicy(row: SpendPolicyRow): SpendPolicy {
  return {
    keyId: row.key_id,
    ...(row.agent_name !== "" ? { agentName: row.agent_name } : {}),
    ...(row.other_agents === 1 ? { otherAgents: true as const } : {}),
    ...(row.budget_credits !== null ? { budgetCredits: row.budget_credits } : {}),
    reset: row.reset,
    capabilityCaps: JSON.parse(row.capability_caps) as CapabilityCap[],
    ...(row.max_price_credits !== null ? { maxPriceCredits: row.max_price_credits } : {}),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export function toQuote(row: QuoteRow): QuoteRecord {
  return {
    quoteId: row.quote_id,
    userId: row.user_id,
    keyId: row.key_id,
    ...(row.agent_name !== null ? { agentName: row.agent_name } : {}),
    capabilityKey: row.capability_key,
    routeKey: row.route_key,
    amountCredits: row.amount_credits,
    requestHash: row.request_hash,
    reservationHoldId: row.reservation_hold_id,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    ...(row.used_by_hold_id !== null ? { usedByHoldId: row.used_by_hold_id } : {}),
  };
}

export function toEntry(row: JournalRow): JournalEntry {
  return {
    entryId: row.entry_id,
    userId: row.user_id,
    kind: row.kind,
    amountCredits: row.amount_credits,
    heldDeltaCredits: row.held_delta_credits,
    referenceId: row.reference_id,
    createdAt: new Date(row.created_at),
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.operator !== null ? { operator: row.operator } : {}),
    ...(row.operator_name !== null ? { operatorName: row.operator_name } : {}),
  };
}

export function toUsage(row: UsageRow): UsageItem {
  return {
    usageId: row.usage_id,
    createdAt: new Date(row.created_at),
    productKey: row.product_key,
    capabilityKey: row.capability_key,
    routeKey: row.route_key,
    provider: row.provider,
    networkKey: row.network_key,
    status: row.status,
    durationMs: row.duration_ms,
    ...(row.agent_name !== null ? { agentName: row.agent_name } : {}),
    traceId: row.trace_id,
    ...(row.error_code !== null ? { errorCode: row.error_code } : {}),
    ...(row.input_tokens !== null ? { inputTokens: row.input_tokens } : {}),
    ...(row.output_tokens !== null ? { outputTokens: row.output_tokens } : {}),
    kind: row.kind,
    userId: row.user_id,
    ...(row.hold_id !== null ? { holdId: row.hold_id } : {}),
    creditsCharged: row.credits_charged,
    ...(row.amount_credits !== null ? { amountCredits: row.amount_credits } : {}),
    ...(row.reference !== null ? { reference: row.reference } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.operator !== null ? { operator: row.operator } : {}),
    ...(row.operator_name !== null ? { operatorName: row.operator_name } : {}),
    ...(row.decision_json !== null ? { decisionJson: row.decision_json } : {}),
  };
}

export function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    keyId: row.key_id,
    userId: row.user_id,
    keyHash: row.key_hash,
    prefix: row.prefix,
    name: row.name,
    createdAt: new Date(row.created_at),
    ...(row.revoked_at !== null ? { revokedAt: new Date(row.revoked_at) } : {}),
    ...keyLimitsOf(row),
    ...(row.agent_name !== null ? { agentName: row.agent_name } : {}),
    ...(row.agent_names !== null ? { agentNames: JSON.parse(row.agent_names) as string[] } : {}),
  };
}

/** `{ limits }` with the columns that are set, or nothing when none is. */
function keyLimitsOf(row: ApiKeyRow): { limits?: ApiKeyLimits } {
  const limits: ApiKeyLimits = {};
  if (row.limit_rps !== null) limits.requestsPerSecond = row.limit_rps;
  if (row.limit_burst !== null) limits.burst = row.limit_burst;
  if (row.limit_in_flight !== null) limits.maxInFlight = row.limit_in_flight;
  return Object.keys(limits).length ? { limits } : {};
}

export interface ResourceRow {
  kind: string;
  resource_id: string;
  provider: string;
  user_id: string;
  hold_id: string;
  execution_id: string | null;
  created_at: number;
}

export interface PaymentRow {
  payment_id: string;
  hold_id: string;
  user_id: string;
  execution_id: string | null;
  route_key: string;
  rail: OutgoingPayment["rail"];
  network: string;
  asset: string;
  amount_atomic: string;
  amount_micro_usd: number;
  pay_to: string;
  payer: string;
  reference: string | null;
  settlement: OutgoingPayment["settlement"];
  booked_at: number;
}

export interface LossRow extends PaymentRow {
  reason: PlatformLoss["reason"];
  loss_micro_usd: number;
  error_code: string | null;
  loss_created_at: number;
}

export function toResource(row: ResourceRow): OwnedResource {
  return {
    kind: row.kind,
    resourceId: row.resource_id,
    provider: row.provider,
    userId: row.user_id,
    holdId: row.hold_id,
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    createdAt: new Date(row.created_at),
  };
}

export function toPayment(row: PaymentRow): OutgoingPayment {
  return {
    paymentId: row.payment_id,
    holdId: row.hold_id,
    userId: row.user_id,
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    routeKey: row.route_key,
    rail: row.rail,
    network: row.network,
    asset: row.asset,
    amountAtomic: row.amount_atomic,
    amountMicroUsd: row.amount_micro_usd,
    payTo: row.pay_to,
    payer: row.payer,
    ...(row.reference !== null ? { reference: row.reference } : {}),
    settlement: row.settlement,
    bookedAt: new Date(row.booked_at),
  };
}

export function toLoss(row: LossRow): PlatformLoss {
  return {
    paymentId: row.payment_id,
    reason: row.reason,
    amountMicroUsd: row.loss_micro_usd,
    holdId: row.hold_id,
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    userId: row.user_id,
    routeKey: row.route_key,
    rail: row.rail,
    network: row.network,
    amountAtomic: row.amount_atomic,
    ...(row.reference !== null ? { reference: row.reference } : {}),
    settlement: row.settlement,
    ...(row.error_code !== null ? { errorCode: row.error_code } : {}),
    createdAt: new Date(row.loss_created_at),
  };
}

export function toExecution(row: ExecutionRow): ExecutionRecord {
  return {
    executionId: row.execution_id,
    userId: row.user_id,
    capabilityKey: row.capability_key,
    ...(row.idempotency_key !== null ? { idempotencyKey: row.idempotency_key } : {}),
    ...(row.request_hash !== null ? { requestHash: row.request_hash } : {}),
    state: row.state,
    leaseExpiresAt: new Date(row.lease_expires_at),
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    ...(row.completed_at !== null ? { completedAt: new Date(row.completed_at) } : {}),
    holdIds: JSON.parse(row.hold_ids) as string[],
    ...(row.result !== null ? { result: JSON.parse(row.result) as StoredResult } : {}),
  };
}

export interface UnchargedWorkRow {
  hold_id: string;
  user_id: string;
  execution_id: string | null;
  route_key: string;
  reason: string;
  estimated_micro_usd: number;
  day: string;
  created_at: number;
}

export function toUnchargedWork(row: UnchargedWorkRow): UnchargedWork {
  return {
    holdId: row.hold_id,
    userId: row.user_id,
    ...(row.execution_id !== null ? { executionId: row.execution_id } : {}),
    routeKey: row.route_key,
    reason: row.reason,
    estimatedCostMicroUsd: row.estimated_micro_usd,
    day: row.day,
    createdAt: new Date(row.created_at),
  };
}
