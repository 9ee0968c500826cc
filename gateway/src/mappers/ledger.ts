// Renders ledger messages as the spec's wallet and usage JSON.
import type { UsageItem } from "@agentic/proto/ledger/v1";

/** A usage item as GET /usage shows it (optional fields omitted when unset). */
export function toUsageItem(u: UsageItem) {
  return {
    id: u.id,
    createdAt: u.createdAt?.toISOString(),
    productKey: u.productKey,
    capabilityKey: u.capabilityKey,
    routeKey: u.routeKey,
    provider: u.provider,
    networkKey: u.networkKey,
    status: u.status,
    creditsCharged: u.creditsCharged,
    durationMs: u.durationMs,
    ...(u.agentName ? { agentName: u.agentName } : {}),
    ...(u.errorCode ? { errorCode: u.errorCode } : {}),
    traceId: u.traceId,
  };
}
