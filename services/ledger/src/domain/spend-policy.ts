// Spend policies: what a key (or one agent under it) may spend per calendar period, and the one
// decision every store makes inside its hold operation. Spend is counted from the holds themselves
// (held: the held amount; captured: what was captured; released or expired: nothing), so a release
// gives the credits back and a capture counts what it charged with no counter to keep in step. A hold
// counts in the period it was created in. Pure functions.

export const SPEND_RESETS = ["daily", "weekly", "monthly", "none"] as const;
export type SpendReset = (typeof SPEND_RESETS)[number];

/** Per-capability cap of a policy, per period. */
export interface CapabilityCap {
  capabilityKey: string;
  maxCredits?: number;
  maxCount?: number;
}

/** A policy on a key (agentName unset) or on one agent under it. */
export interface SpendPolicy {
  keyId: string;
  agentName?: string;
  budgetCredits?: number;
  reset: SpendReset;
  capabilityCaps: CapabilityCap[];
  maxPriceCredits?: number;
  /** When the policy was first set: a `none` allowance counts from here (kept across updates, reset by a clear). */
  createdAt: Date;
  updatedAt: Date;
}

/** Who a hold is spent by, as the executor names it. */
export interface SpendAttribution {
  keyId: string;
  agentName?: string;
  capabilityKey: string;
}

/** What the holds a policy covers have spent since a time: in total, and per capability. */
export interface SpendUsage {
  /** Held (open holds) plus captured credits. */
  spentCredits: number;
  /** Of spentCredits, what open holds reserve. */
  heldCredits: number;
  /** Per capability key: credits as above and the number of holds held or captured. */
  byCapability: Record<string, { spentCredits: number; count: number }>;
}

/** A hold as the spend count reads it. */
export interface SpendHold {
  state: "held" | "captured" | "released" | "expired";
  amountCredits: number;
  capturedCredits: number;
  capabilityKey?: string;
}

/** The calendar period (UTC) `now` falls in: daily from 00:00, weekly from Monday 00:00, monthly from the 1st; none from the policy's creation, never resetting. */
export function spendPeriod(policy: Pick<SpendPolicy, "reset" | "createdAt">, now: Date): { start: Date; resetsAt?: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (policy.reset) {
    case "daily":
      return { start: new Date(Date.UTC(y, m, d)), resetsAt: new Date(Date.UTC(y, m, d + 1)) };
    case "weekly": {
      const sinceMonday = (now.getUTCDay() + 6) % 7;
      return { start: new Date(Date.UTC(y, m, d - sinceMonday)), resetsAt: new Date(Date.UTC(y, m, d - sinceMonday + 7)) };
    }
    case "monthly":
      return { start: new Date(Date.UTC(y, m, 1)), resetsAt: new Date(Date.UTC(y, m + 1, 1)) };
    case "none":
      return { start: new Date(policy.createdAt) };
  }
}

/** Whether a hold of `who` counts against `policy`: the key's holds, and for an agent policy only that agent's. */
export function policyCovers(
  policy: Pick<SpendPolicy, "keyId" | "agentName">,
  who: Pick<SpendAttribution, "keyId" | "agentName">,
): boolean {
  return policy.keyId === who.keyId && (policy.agentName === undefined || policy.agentName === who.agentName);
}

/** Credits a hold counts: held while held, its capture once captured, nothing once released or expired. */
export function spentBy(hold: Pick<SpendHold, "state" | "amountCredits" | "capturedCredits">): number {
  return hold.state === "held" ? hold.amountCredits : hold.state === "captured" ? hold.capturedCredits : 0;
}

/** The usage of a set of holds (already selected for the policy and period). */
export function spendUsageOf(holds: Iterable<SpendHold>): SpendUsage {
  const usage: SpendUsage = { spentCredits: 0, heldCredits: 0, byCapability: {} };
  for (const hold of holds) addSpend(usage, hold);
  return usage;
}

/** Adds one hold to a usage (stores that aggregate row by row). */
export function addSpend(usage: SpendUsage, hold: SpendHold): void {
  const spent = spentBy(hold);
  usage.spentCredits += spent;
  if (hold.state === "held") usage.heldCredits += hold.amountCredits;
  if (!hold.capabilityKey) return;
  const cap = (usage.byCapability[hold.capabilityKey] ??= { spentCredits: 0, count: 0 });
  cap.spentCredits += spent;
  if (hold.state === "held" || hold.state === "captured") cap.count += 1;
}

/** Why a hold was refused by a policy: the limit, what remains of it and when it resets. */
export interface SpendRefusal {
  code: "SPEND_LIMIT_EXCEEDED" | "PRICE_ABOVE_MAX";
  keyId: string;
  agentName?: string;
  /** budget, capability_credits, capability_count or max_price. */
  limit: "budget" | "capability_credits" | "capability_count" | "max_price";
  capabilityKey?: string;
  limitValue: number;
  /** Credits (or executions, for capability_count) left this period. */
  remaining: number;
  requested: number;
  resetsAt?: Date;
}

/**
 * Whether a hold of `amountCredits` for `who` may be placed under `checks` (each policy that covers it,
 * with its usage this period): the first refusal, or null. The per-execution maximum is checked first.
 */
export function decideSpend(
  checks: readonly { policy: SpendPolicy; usage: SpendUsage }[],
  who: SpendAttribution,
  amountCredits: number,
  now: Date,
): SpendRefusal | null {
  for (const { policy } of checks) {
    if (policy.maxPriceCredits !== undefined && amountCredits > policy.maxPriceCredits) {
      return refusal("PRICE_ABOVE_MAX", policy, "max_price", policy.maxPriceCredits, policy.maxPriceCredits, amountCredits, now);
    }
  }
  for (const { policy, usage } of checks) {
    if (policy.budgetCredits !== undefined && usage.spentCredits + amountCredits > policy.budgetCredits) {
      const remaining = Math.max(0, policy.budgetCredits - usage.spentCredits);
      return refusal("SPEND_LIMIT_EXCEEDED", policy, "budget", policy.budgetCredits, remaining, amountCredits, now);
    }
    const cap = policy.capabilityCaps.find((c) => c.capabilityKey === who.capabilityKey);
    if (!cap) continue;
    const used = usage.byCapability[cap.capabilityKey] ?? { spentCredits: 0, count: 0 };
    if (cap.maxCredits !== undefined && used.spentCredits + amountCredits > cap.maxCredits) {
      const remaining = Math.max(0, cap.maxCredits - used.spentCredits);
      return {
        ...refusal("SPEND_LIMIT_EXCEEDED", policy, "capability_credits", cap.maxCredits, remaining, amountCredits, now),
        capabilityKey: cap.capabilityKey,
      };
    }
    if (cap.maxCount !== undefined && used.count + 1 > cap.maxCount) {
      const remaining = Math.max(0, cap.maxCount - used.count);
      return {
        ...refusal("SPEND_LIMIT_EXCEEDED", policy, "capability_count", cap.maxCount, remaining, amountCredits, now),
        capabilityKey: cap.capabilityKey,
      };
    }
  }
  return null;
}

function refusal(
  code: SpendRefusal["code"],
  policy: SpendPolicy,
  limit: SpendRefusal["limit"],
  limitValue: number,
  remaining: number,
  requested: number,
  now: Date,
): SpendRefusal {
  const { resetsAt } = spendPeriod(policy, now);
  return {
    code,
    keyId: policy.keyId,
    ...(policy.agentName !== undefined ? { agentName: policy.agentName } : {}),
    limit,
    limitValue,
    remaining,
    requested,
    ...(resetsAt && limit !== "max_price" ? { resetsAt } : {}),
  };
}

/** Key-wide first, then the agent's: the order policies are checked and shown in. */
export function byPolicyOrder(a: Pick<SpendPolicy, "keyId" | "agentName">, b: Pick<SpendPolicy, "keyId" | "agentName">): number {
  if (a.keyId !== b.keyId) return a.keyId < b.keyId ? -1 : 1;
  const an = a.agentName ?? "";
  const bn = b.agentName ?? "";
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** The policies that cover `who` among `policies` (the key's and the agent's), in check order. */
export function coveringPolicies(policies: readonly SpendPolicy[], who: Pick<SpendAttribution, "keyId" | "agentName">): SpendPolicy[] {
  return policies.filter((p) => policyCovers(p, who)).sort(byPolicyOrder);
}

/** The key a store files a policy under: one per (key, agent), "" for the key-wide one. */
export const policyAgentKey = (agentName: string | undefined): string => agentName ?? "";
