// Domain records → generated proto messages, where the shapes differ. Hold, Wallet and JournalEntry
// have the fields of their messages and are returned as they are.
import type { ApiKeyInfo, UsageItem as UsageItemMessage } from "@agentic/proto/ledger/v1";
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
