// Decoding of agentic.events.v1.ExecutionSettled into the domain's Settlement, and the checks that
// tell a message that can never be applied (poison: terminate it) from one to apply.
import { ExecutionSettled, SettlementKind, type ExecutionUsage } from "@agentic/proto/events/v1";
import type { Settlement } from "../domain/ledger";
import type { UsageDraft } from "../domain/types";

export type DecodedSettlement = { ok: true; settlement: Settlement } | { ok: false; reason: string };

/** Decodes one message body; `receivedAt` stands in for a usage item without created_at. */
export function decodeSettlement(data: Uint8Array, receivedAt: Date): DecodedSettlement {
  let event: ExecutionSettled;
  try {
    event = ExecutionSettled.decode(data);
  } catch (err) {
    return { ok: false, reason: `undecodable ExecutionSettled: ${(err as Error).message}` };
  }
  if (!event.holdId) return { ok: false, reason: "hold_id is empty" };
  if (!event.userId) return { ok: false, reason: "user_id is empty" };
  const kind = event.kind === SettlementKind.SETTLEMENT_KIND_CAPTURE ? "capture" : event.kind === SettlementKind.SETTLEMENT_KIND_RELEASE ? "release" : undefined;
  if (!kind) return { ok: false, reason: `kind ${event.kind} is neither CAPTURE nor RELEASE` };
  if (!Number.isSafeInteger(event.capturedCredits) || event.capturedCredits < 0) {
    return { ok: false, reason: `captured_credits ${event.capturedCredits} is not a non-negative integer` };
  }
  let outcome: Settlement["outcome"];
  if (event.outcome) {
    const { httpStatus, bodyJson } = event.outcome;
    if (!Number.isInteger(httpStatus) || httpStatus < 100 || httpStatus > 599) return { ok: false, reason: `outcome.http_status ${httpStatus} is not an HTTP status` };
    try {
      outcome = { httpStatus, ...(bodyJson ? { body: JSON.parse(bodyJson) as Record<string, unknown> } : {}) };
    } catch {
      return { ok: false, reason: "outcome.body_json is not JSON" };
    }
  }
  return {
    ok: true,
    settlement: {
      holdId: event.holdId,
      userId: event.userId,
      kind,
      capturedCredits: kind === "capture" ? event.capturedCredits : 0,
      usage: toUsageDraft(event, kind, receivedAt),
      ...(outcome ? { outcome } : {}),
    },
  };
}

function toUsageDraft(event: ExecutionSettled, kind: "capture" | "release", receivedAt: Date): UsageDraft {
  const u: Partial<ExecutionUsage> = event.usage ?? {};
  return {
    usageId: u.usageId || `use_${event.holdId}`,
    createdAt: u.createdAt ?? receivedAt,
    productKey: u.productKey ?? "",
    capabilityKey: u.capabilityKey ?? "",
    routeKey: u.routeKey ?? "",
    provider: u.provider ?? "",
    networkKey: u.networkKey ?? "",
    status: u.status || (kind === "capture" ? "succeeded" : "failed"),
    durationMs: u.durationMs ?? 0,
    agentName: u.agentName,
    traceId: u.traceId ?? "",
    errorCode: u.errorCode,
  };
}
