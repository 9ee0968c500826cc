// Renders ledger messages as the spec's wallet and usage JSON, and executions as GET /executions/{id} shows them.
import type { Execution, Hold, SpendPolicyStatus, StoredResult, UsageItem } from "@agentic/proto/ledger/v1";
import { ExecuteResponse } from "@agentic/proto/executor/v1";
import { EXECUTION_ID_PATTERN } from "../errors";
import { toExecutionResponse } from "../routes/execute";

/**
 * A usage item as GET /usage shows it (optional fields omitted when unset). A credit movement (grant,
 * refund, adjustment, top-up) shows what moved and why; the operator's identity stays internal.
 */
export function toUsageItem(u: UsageItem) {
  const kind = u.kind || "charge"; // a ledger from before kinds sends none: its items are charges
  if (kind !== "charge") {
    return {
      id: u.id,
      kind,
      createdAt: u.createdAt?.toISOString(),
      creditsCharged: u.creditsCharged,
      amountCredits: u.amountCredits ?? 0,
      ...(u.reference ? { reference: u.reference } : {}),
      ...(u.reason ? { reason: u.reason } : {}),
    };
  }
  return {
    kind,
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
    ...(u.inputTokens !== undefined ? { inputTokens: u.inputTokens } : {}),
    ...(u.outputTokens !== undefined ? { outputTokens: u.outputTokens } : {}),
    ...decisionOf(u.decisionJson),
  };
}

/** The executor's decision stored with the item, as an object; an item without one (or an unreadable one) shows none. */
function decisionOf(json: string | undefined): { decision?: Record<string, unknown> } {
  if (!json) return {};
  try {
    const decision: unknown = JSON.parse(json);
    return typeof decision === "object" && decision !== null && !Array.isArray(decision)
      ? { decision: decision as Record<string, unknown> }
      : {};
  } catch {
    return {};
  }
}

/** A spend policy that applies to the caller, as GET /wallet shows it: its limits, what its period has spent and when it resets. */
export function toSpendPolicy(s: SpendPolicyStatus) {
  const p = s.policy;
  return {
    keyId: p?.keyId ?? "",
    ...(p?.agentName !== undefined ? { agentName: p.agentName } : {}),
    ...(p?.otherAgents ? { otherAgents: true } : {}),
    reset: p?.reset ?? "none",
    ...(p?.budgetCredits !== undefined ? { budgetCredits: p.budgetCredits } : {}),
    ...(p?.maxPriceCredits !== undefined ? { maxPriceCredits: p.maxPriceCredits } : {}),
    spentCredits: s.spentCredits,
    heldCredits: s.heldCredits,
    ...(s.remainingCredits !== undefined ? { remainingCredits: s.remainingCredits } : {}),
    periodStart: s.periodStart?.toISOString(),
    resetsAt: s.resetsAt ? s.resetsAt.toISOString() : null,
    capabilityCaps: s.capabilityCaps.map((c) => ({
      capabilityKey: c.cap?.capabilityKey ?? "",
      ...(c.cap?.maxCredits !== undefined ? { maxCredits: c.cap.maxCredits } : {}),
      ...(c.cap?.maxCount !== undefined ? { maxCount: c.cap.maxCount } : {}),
      spentCredits: c.spentCredits,
      count: c.count,
    })),
  };
}

/** An attempt of an execution as GET /executions/{id} shows it: the ledger hold that paid for it. */
export function toExecutionAttempt(h: Hold) {
  return {
    holdId: h.holdId,
    routeKey: h.routeKey,
    heldCredits: h.amountCredits,
    state: h.state,
    chargedCredits: h.capturedCredits,
    createdAt: h.createdAt?.toISOString(),
    ...(h.settledAt ? { settledAt: h.settledAt.toISOString() } : {}),
  };
}

/**
 * The answer an execution ended with, as execute gave it: a GenericExecutionResponse, or an
 * ErrorResponse without the executor's internal fields (gRPC status, attempt details).
 */
export function toExecutionResult(r: StoredResult) {
  const body = r.body ?? {};
  if (r.httpStatus === 200) {
    // Only executions under an Idempotency-Key keep the provider's data (for replays): absent stays absent, not `{}`.
    const { data, ...rest } = toExecutionResponse(ExecuteResponse.fromJSON(body));
    return { httpStatus: r.httpStatus, body: body.data === undefined ? rest : { ...rest, data } };
  }
  const details = typeof body.details === "object" && body.details !== null ? (body.details as Record<string, unknown>) : {};
  const executionId =
    typeof details.executionId === "string" && EXECUTION_ID_PATTERN.test(details.executionId) ? details.executionId : undefined;
  return {
    httpStatus: r.httpStatus,
    body: {
      success: false as const,
      error: String(body.error ?? "internal error"),
      code: String(body.code ?? "INTERNAL"),
      hint: String(body.hint ?? ""),
      ...(executionId ? { executionId } : {}),
    },
  };
}

/** GET /executions/{id}: where one execution stands, with its attempts (optional fields omitted when unset). */
export function toExecutionView(e: Execution) {
  return {
    executionId: e.executionId,
    state: e.state,
    indeterminate: e.indeterminate,
    capabilityKey: e.capabilityKey,
    ...(e.idempotencyKey ? { idempotencyKey: e.idempotencyKey } : {}),
    createdAt: e.createdAt?.toISOString(),
    ...(e.completedAt ? { completedAt: e.completedAt.toISOString() } : {}),
    creditsCharged: e.creditsCharged,
    attempts: e.holds.map(toExecutionAttempt),
    ...(e.result ? { result: toExecutionResult(e.result) } : {}),
  };
}
