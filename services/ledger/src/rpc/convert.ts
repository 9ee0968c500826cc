// Domain records → generated proto messages, where the shapes differ. Hold, Wallet and JournalEntry
// have the fields of their messages and are returned as they are.
import type {
  ApiKeyInfo,
  Execution,
  OutgoingPaymentRecord,
  OwnedResource as OwnedResourceMessage,
  PlatformLoss as PlatformLossMessage,
  SpendPolicyStatus as SpendPolicyStatusMessage,
  UsageItem as UsageItemMessage,
} from "@agentic/proto/ledger/v1";
import type { ExecutionView } from "../domain/ledger";
import type { SpendPolicyStatus } from "../domain/spend-policies";
import type { ApiKeyRecord, OutgoingPayment, OwnedResource, PlatformLoss, UsageItem } from "../domain/types";

/** Key metadata only: the hash never leaves the ledger. */
export function toApiKeyInfo(record: ApiKeyRecord): ApiKeyInfo {
  return {
    keyId: record.keyId,
    userId: record.userId,
    prefix: record.prefix,
    name: record.name,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
    ...(record.limits ? { limits: record.limits } : {}),
    agentName: record.agentName,
    ...(record.agentNames ? { agentNames: { names: record.agentNames } } : {}),
  };
}

export function toUsageItemMessage(item: UsageItem): UsageItemMessage {
  return {
    id: item.usageId,
    createdAt: item.createdAt,
    productKey: item.productKey,
    capabilityKey: item.capabilityKey,
    routeKey: item.routeKey,
    provider: item.provider,
    networkKey: item.networkKey,
    status: item.status,
    creditsCharged: item.creditsCharged,
    durationMs: item.durationMs,
    agentName: item.agentName,
    traceId: item.traceId,
    errorCode: item.errorCode,
    holdId: item.holdId,
    inputTokens: item.inputTokens,
    outputTokens: item.outputTokens,
    kind: item.kind,
    amountCredits: item.amountCredits,
    reference: item.reference,
    reason: item.reason,
    operator: item.operator,
    operatorName: item.operatorName,
    decisionJson: item.decisionJson,
  };
}

/** A policy and its period as GetWallet, GetSpendPolicies and SetSpendPolicy show it. */
export function toSpendPolicyStatusMessage(s: SpendPolicyStatus): SpendPolicyStatusMessage {
  const p = s.policy;
  return {
    policy: {
      keyId: p.keyId,
      agentName: p.agentName,
      ...(p.otherAgents ? { otherAgents: true } : {}),
      budgetCredits: p.budgetCredits,
      reset: p.reset,
      capabilityCaps: p.capabilityCaps,
      maxPriceCredits: p.maxPriceCredits,
      updatedAt: p.updatedAt,
    },
    periodStart: s.periodStart,
    resetsAt: s.resetsAt,
    spentCredits: s.usage.spentCredits,
    heldCredits: s.usage.heldCredits,
    remainingCredits: s.remainingCredits,
    capabilityCaps: p.capabilityCaps.map((cap) => ({
      cap,
      spentCredits: s.usage.byCapability[cap.capabilityKey]?.spentCredits ?? 0,
      count: s.usage.byCapability[cap.capabilityKey]?.count ?? 0,
    })),
  };
}

export function toExecutionMessage(view: ExecutionView): Execution {
  const e = view.execution;
  return {
    executionId: e.executionId,
    userId: e.userId,
    capabilityKey: e.capabilityKey,
    state: e.state,
    indeterminate: view.indeterminate,
    idempotencyKey: e.idempotencyKey,
    createdAt: e.createdAt,
    leaseExpiresAt: e.leaseExpiresAt,
    completedAt: e.completedAt,
    holds: view.holds,
    creditsCharged: view.creditsCharged,
    result: e.result,
  };
}

export function toOwnedResourceMessage(r: OwnedResource): OwnedResourceMessage {
  return {
    kind: r.kind,
    resourceId: r.resourceId,
    provider: r.provider,
    userId: r.userId,
    executionId: r.executionId ?? "",
    holdId: r.holdId,
    createdAt: r.createdAt,
  };
}

export function toOutgoingPaymentMessage(p: OutgoingPayment): OutgoingPaymentRecord {
  return {
    paymentId: p.paymentId,
    holdId: p.holdId,
    executionId: p.executionId ?? "",
    userId: p.userId,
    routeKey: p.routeKey,
    rail: p.rail,
    network: p.network,
    asset: p.asset,
    amountAtomic: p.amountAtomic,
    amountMicroUsd: p.amountMicroUsd,
    payTo: p.payTo,
    payer: p.payer,
    reference: p.reference ?? "",
    settlement: p.settlement,
    bookedAt: p.bookedAt,
  };
}

export function toPlatformLossMessage(l: PlatformLoss): PlatformLossMessage {
  return {
    reason: l.reason,
    amountMicroUsd: l.amountMicroUsd,
    paymentId: l.paymentId,
    holdId: l.holdId,
    executionId: l.executionId ?? "",
    userId: l.userId,
    routeKey: l.routeKey,
    rail: l.rail,
    network: l.network,
    amountAtomic: l.amountAtomic,
    reference: l.reference ?? "",
    settlement: l.settlement,
    errorCode: l.errorCode ?? "",
    createdAt: l.createdAt,
  };
}
