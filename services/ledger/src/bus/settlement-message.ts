// Decoding of agentic.events.v1.ExecutionSettled into the domain's Settlement, and the checks that
// tell a message that can never be applied (poison: terminate it) from one to apply.
import {
  ExecutionSettled,
  SettlementKind,
  type CreatedResource,
  type ExecutionUsage,
  type OutgoingPayment,
} from "@agentic/proto/events/v1";
import type { Settlement } from "../domain/ledger";
import { PAYMENT_SETTLEMENTS, type PaymentDraft, type ResourceDraft, type UnchargedWorkDraft, type UsageDraft } from "../domain/types";

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
  const kind =
    event.kind === SettlementKind.SETTLEMENT_KIND_CAPTURE
      ? "capture"
      : event.kind === SettlementKind.SETTLEMENT_KIND_RELEASE
        ? "release"
        : undefined;
  if (!kind) return { ok: false, reason: `kind ${event.kind} is neither CAPTURE nor RELEASE` };
  if (!Number.isSafeInteger(event.capturedCredits) || event.capturedCredits < 0) {
    return { ok: false, reason: `captured_credits ${event.capturedCredits} is not a non-negative integer` };
  }
  let outcome: Settlement["outcome"];
  if (event.outcome) {
    const { httpStatus, bodyJson } = event.outcome;
    if (!Number.isInteger(httpStatus) || httpStatus < 100 || httpStatus > 599)
      return { ok: false, reason: `outcome.http_status ${httpStatus} is not an HTTP status` };
    try {
      outcome = { httpStatus, ...(bodyJson ? { body: JSON.parse(bodyJson) as Record<string, unknown> } : {}) };
    } catch {
      return { ok: false, reason: "outcome.body_json is not JSON" };
    }
  }
  const resources: ResourceDraft[] = [];
  for (const [i, r] of event.resources.entries()) {
    const problem = resourceProblem(r);
    if (problem) return { ok: false, reason: `resources[${i}]: ${problem}` };
    resources.push({ kind: r.kind, resourceId: r.resourceId, provider: r.provider });
  }
  const payments: PaymentDraft[] = [];
  for (const [i, p] of event.payments.entries()) {
    const problem = paymentProblem(p);
    if (problem) return { ok: false, reason: `payments[${i}]: ${problem}` };
    payments.push(toPaymentDraft(p));
  }
  const unchargedWork = unchargedWorkOf(event);
  return {
    ok: true,
    settlement: {
      holdId: event.holdId,
      userId: event.userId,
      kind,
      capturedCredits: kind === "capture" ? event.capturedCredits : 0,
      usage: toUsageDraft(event, kind, receivedAt),
      ...(outcome ? { outcome } : {}),
      ...(resources.length ? { resources } : {}),
      ...(payments.length ? { payments } : {}),
      ...(unchargedWork ? { unchargedWork } : {}),
    },
  };
}

/** The release's uncharged vendor work, when it carries one with a readable reason; its estimate is clamped to 0 and above. */
function unchargedWorkOf(event: ExecutionSettled): UnchargedWorkDraft | undefined {
  const work = event.unchargedWork;
  if (!work || !TOKEN.test(work.reason)) return undefined;
  return { reason: work.reason, estimatedCostMicroUsd: Math.max(0, Number(work.estimatedCostMicroUsd) || 0) };
}

// Resource ids and payment fields end up in stores and reports: bounded, printable, no whitespace.
const TOKEN = /^[^\s\p{C}]{1,512}$/u;
// Payment details a rail may lack are booked as given (empty) rather than refusing the settlement they ride on.
const OPTIONAL_TOKEN = /^[^\s\p{C}]{0,512}$/u;

function resourceProblem(r: CreatedResource): string | undefined {
  if (!TOKEN.test(r.kind)) return "kind must be 1..512 printable characters";
  if (!TOKEN.test(r.resourceId)) return "resource_id must be 1..512 printable characters";
  if (!TOKEN.test(r.provider)) return "provider must be 1..512 printable characters";
  return undefined;
}

function paymentProblem(p: OutgoingPayment): string | undefined {
  if (p.rail !== "x402" && p.rail !== "mpp") return `rail ${JSON.stringify(p.rail)} is neither x402 nor mpp`;
  if (!/^\d{1,78}$/.test(p.amountAtomic)) return "amount_atomic must be a non-negative decimal integer";
  if (!Number.isSafeInteger(p.amountMicroUsd) || p.amountMicroUsd < 0) return "amount_micro_usd must be a non-negative integer";
  if (!(PAYMENT_SETTLEMENTS as readonly string[]).includes(p.settlement))
    return `settlement ${JSON.stringify(p.settlement)} is not one of ${PAYMENT_SETTLEMENTS.join(", ")}`;
  for (const field of ["network", "asset", "payTo", "payer", "reference"] as const)
    if (!OPTIONAL_TOKEN.test(p[field])) return `${field} must be at most 512 printable characters`;
  return undefined;
}

function toPaymentDraft(p: OutgoingPayment): PaymentDraft {
  return {
    rail: p.rail as PaymentDraft["rail"],
    network: p.network,
    asset: p.asset,
    amountAtomic: p.amountAtomic,
    amountMicroUsd: p.amountMicroUsd,
    payTo: p.payTo,
    payer: p.payer,
    ...(p.reference ? { reference: p.reference } : {}),
    settlement: p.settlement as PaymentDraft["settlement"],
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
    ...(u.inputTokens !== undefined ? { inputTokens: u.inputTokens } : {}),
    ...(u.outputTokens !== undefined ? { outputTokens: u.outputTokens } : {}),
    ...(u.decisionJson ? { decisionJson: u.decisionJson } : {}),
  };
}
