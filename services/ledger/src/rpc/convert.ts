// Domain records → generated proto messages (the shapes mostly match; this is where they differ).
import type { ApiKeyInfo, Hold as HoldMessage, JournalEntry as JournalEntryMessage, UsageItem as UsageItemMessage } from "@agentic/proto/ledger/v1";
import type { ApiKeyRecord, Hold, JournalEntry, UsageItem } from "../domain/types";

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

export function toHoldMessage(hold: Hold): HoldMessage {
  return {
    holdId: hold.holdId,
    userId: hold.userId,
    amountCredits: hold.amountCredits,
    state: hold.state,
    capturedCredits: hold.capturedCredits,
    createdAt: hold.createdAt,
    expiresAt: hold.expiresAt,
    routeKey: hold.routeKey,
    settledAt: hold.settledAt,
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

export function toJournalEntryMessage(entry: JournalEntry): JournalEntryMessage {
  return {
    entryId: entry.entryId,
    userId: entry.userId,
    kind: entry.kind,
    amountCredits: entry.amountCredits,
    heldDeltaCredits: entry.heldDeltaCredits,
    referenceId: entry.referenceId,
    createdAt: entry.createdAt,
  };
}
