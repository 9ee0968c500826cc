// Domain records → generated proto messages, where the shapes differ. Hold, Wallet and JournalEntry
// have the fields of their messages and are returned as they are.
import type { ApiKeyInfo, Execution, UsageItem as UsageItemMessage } from "@agentic/proto/ledger/v1";
import type { ExecutionView } from "../domain/ledger";
import type { ApiKeyRecord, UsageItem } from "../domain/types";

/** Key metadata only: the hash never leaves the ledger. */
export function toApiKeyInfo(record: ApiKeyRecord): ApiKeyInfo {
  return {
    keyId: record.keyId,
    userId: record.userId,
    prefix: record.prefix,
    name: record.name,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
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
