// One machine code saying why a candidate cannot be executed now, for clients that branch on it
// (the blocking requirements list every block; this names the first, in their reporting order).
import type { BlockingRequirement, CapabilityRef } from "./feasibility";

const REASON_OF_BLOCK: Partial<Record<BlockingRequirement, string>> = {
  ROUTE_PENDING: "planned",
  ROUTE_UNHEALTHY: "breaker_open",
  FEATURE_UNSUPPORTED: "missing_feature",
  RESOURCE_UNSUPPORTED: "resource_unsupported",
  REDIRECT_NOT_BROKERED: "redirect_only",
  BYO_CREDENTIALS_REQUIRED: "byo_credentials_required",
  OVER_MAX_PRICE: "over_max_price",
  SPEND_LIMIT_EXCEEDED: "spend_limit_exceeded",
  CREDITS_REQUIRED: "credits_required",
};

/**
 * The reason code of a candidate's first blocking requirement; undefined when nothing blocks it.
 * CAPABILITY_GATED is `planned` for a capability not yet built (planned, pending) and `gated` otherwise
 * (recommend-only, or a route whose execution the catalog gates). A block without an entry here is
 * reported as its code in lower case, so a new block never goes without a reason.
 */
export function unavailableReasonCode(
  blocks: readonly BlockingRequirement[],
  capability: Pick<CapabilityRef, "status">,
): string | undefined {
  const first = blocks[0];
  if (first === undefined) return undefined;
  if (first === "CAPABILITY_GATED") return capability.status === "planned" || capability.status === "pending" ? "planned" : "gated";
  return REASON_OF_BLOCK[first] ?? String(first).toLowerCase();
}
