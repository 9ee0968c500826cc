// Spend policies: what a key (or one agent under it) may spend per calendar period, and the one
// decision every store makes inside its hold operation. Spend is what the holds count (held: the held
// amount; captured: what was captured; released or expired: nothing), so a release gives the credits
// back and a capture counts what it charged. Stores keep it in per-day buckets (key, agent, capability,
// UTC day of the hold), moved in the same operation as the hold and as its settlement, so a check reads
// one row per day of the period (since it was set, for `none`), capability and agent, however many holds they had. A hold counts in the day it was created. Pure functions.
// Agent names are compared normalized (normalizeAgentName): the ledger normalizes them as they arrive.
import { normalizeAgentName } from "@agentic/platform/core";

export const SPEND_RESETS = ["daily", "weekly", "monthly", "none"] as const;
export type SpendReset = (typeof SPEND_RESETS)[number];

/** Per-capability cap of a policy, per period. */
export interface CapabilityCap {
  capabilityKey: string;
  maxCredits?: number;
  maxCount?: number;
}

/**
 * A policy on a key (agentName unset), on one agent under it (agentName, normalized), or the key's default
 * agent policy (otherAgents): the spend of every agent that has no policy of its own, no agent named
 * included, counted together, so that an agent taking a new name does not get a fresh budget.
 */
export interface SpendPolicy {
  keyId: string;
  agentName?: string;
  otherAgents?: true;
  budgetCredits?: number;
  reset: SpendReset;
  capabilityCaps: CapabilityCap[];
  maxPriceCredits?: number;
  /** When the policy was first set: a `none` allowance counts from here (kept across updates, reset by a clear). */
  createdAt: Date;
  updatedAt: Date;
}

/** Which holds' spend a policy counts: the key's; one agent's; or, with exceptAgentNames, every agent's but those. */
export interface SpendScope {
  keyId: string;
  agentName?: string;
  exceptAgentNames?: readonly string[];
}

/** Who a hold is spent by, as the executor names it (agentName normalized). */
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

/** One per-day bucket of spend: the key's (and agent's) holds of one capability created that UTC day. */
export interface SpendBucket {
  keyId: string;
  /** "" for holds that named no agent. */
  agentName: string;
  /** "" for holds that named no capability. */
  capabilityKey: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  heldCredits: number;
  heldCount: number;
  capturedCredits: number;
  capturedCount: number;
}

/** What one hold event moves in its bucket: a new hold, or the end of a held one (capture, release, expiry). */
export type SpendBucketDelta = Pick<SpendBucket, "heldCredits" | "heldCount" | "capturedCredits" | "capturedCount">;

/** The bucket key of a hold with spend attribution, or null for one without (quote reservations, holds without a key). */
export function spendBucketOf(hold: {
  keyId?: string | undefined;
  agentName?: string | undefined;
  capabilityKey?: string | undefined;
  createdAt: Date;
}): Pick<SpendBucket, "keyId" | "agentName" | "capabilityKey" | "day"> | null {
  if (hold.keyId === undefined) return null;
  return {
    keyId: hold.keyId,
    // Normalized here too: a hold placed before names were normalized settles into its agent's bucket.
    agentName: normalizeAgentName(hold.agentName ?? ""),
    capabilityKey: hold.capabilityKey ?? "",
    day: hold.createdAt.toISOString().slice(0, 10),
  };
}

/** A new hold of `amountCredits`. */
export const heldDelta = (amountCredits: number): SpendBucketDelta => ({
  heldCredits: amountCredits,
  heldCount: 1,
  capturedCredits: 0,
  capturedCount: 0,
});

/** A held hold that ended: it leaves the held sums; a capture counts what it charged. */
export function endedDelta(hold: { amountCredits: number }, end: { state: string; capturedCredits: number }): SpendBucketDelta {
  const captured = end.state === "captured";
  return {
    heldCredits: -hold.amountCredits,
    heldCount: -1,
    capturedCredits: captured ? end.capturedCredits : 0,
    capturedCount: captured ? 1 : 0,
  };
}

/** The first UTC day a policy's period counts (buckets are per day: a `none` allowance counts from the day it was set). */
export const periodStartDay = (start: Date): string => start.toISOString().slice(0, 10);

/** The usage of the buckets a policy covers in its period (already selected). */
export function spendUsageOfBuckets(buckets: Iterable<SpendBucketDelta & { capabilityKey: string }>): SpendUsage {
  const usage: SpendUsage = { spentCredits: 0, heldCredits: 0, byCapability: {} };
  for (const b of buckets) {
    const spent = b.heldCredits + b.capturedCredits;
    usage.spentCredits += spent;
    usage.heldCredits += b.heldCredits;
    if (!b.capabilityKey) continue;
    const cap = (usage.byCapability[b.capabilityKey] ??= { spentCredits: 0, count: 0 });
    cap.spentCredits += spent;
    cap.count += b.heldCount + b.capturedCount;
  }
  return usage;
}

/** The calendar period (UTC) `now` falls in: daily from 00:00, weekly from Monday 00:00, monthly from the 1st; none from the day the policy was first set, never resetting. */
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
    case "none": {
      // Spend is kept per UTC day, so a one-off allowance counts from the start of the day it was first set.
      const c = policy.createdAt;
      return { start: new Date(Date.UTC(c.getUTCFullYear(), c.getUTCMonth(), c.getUTCDate())) };
    }
  }
}

/** The key-wide policy: neither an agent's nor the default agent policy. */
const isKeyWide = (p: Pick<SpendPolicy, "agentName" | "otherAgents">): boolean => p.agentName === undefined && !p.otherAgents;

/** What `policy` counts, given all the policies of its key (`keyPolicies`): the default agent policy counts every agent but those with their own. */
export function spendScopeOf(
  policy: Pick<SpendPolicy, "keyId" | "agentName" | "otherAgents">,
  keyPolicies: readonly Pick<SpendPolicy, "keyId" | "agentName">[],
): SpendScope {
  if (policy.otherAgents) {
    const named = keyPolicies.filter((p) => p.keyId === policy.keyId && p.agentName !== undefined).map((p) => p.agentName!);
    return { keyId: policy.keyId, exceptAgentNames: named };
  }
  return { keyId: policy.keyId, ...(policy.agentName !== undefined ? { agentName: policy.agentName } : {}) };
}

/** A policy covering a hold or quote, what its scope counts, and what that scope has spent in the policy's current period. */
export interface SpendCheck {
  policy: SpendPolicy;
  scope: SpendScope;
  usage: SpendUsage;
}

/** Whether a spend bucket (its agentName "" when the hold named none) counts in `scope`; the stores' queries select the same. */
export function bucketInScope(scope: SpendScope, bucket: Pick<SpendBucket, "keyId" | "agentName">): boolean {
  if (bucket.keyId !== scope.keyId) return false;
  if (scope.agentName !== undefined) return bucket.agentName === scope.agentName;
  return !(scope.exceptAgentNames ?? []).includes(bucket.agentName);
}

/** Why a hold was refused by a policy: the limit, what remains of it and when it resets. */
export interface SpendRefusal {
  code: "SPEND_LIMIT_EXCEEDED" | "PRICE_ABOVE_MAX";
  keyId: string;
  agentName?: string;
  /** The default agent policy refused it. */
  otherAgents?: true;
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
    ...(policy.otherAgents ? { otherAgents: true as const } : {}),
    limit,
    limitValue,
    remaining,
    requested,
    ...(resetsAt && limit !== "max_price" ? { resetsAt } : {}),
  };
}

/** Key-wide first, then the default agent policy, then the agents': the order policies are checked and shown in. */
export function byPolicyOrder(
  a: Pick<SpendPolicy, "keyId" | "agentName" | "otherAgents">,
  b: Pick<SpendPolicy, "keyId" | "agentName" | "otherAgents">,
): number {
  if (a.keyId !== b.keyId) return a.keyId < b.keyId ? -1 : 1;
  const rank = (p: Pick<SpendPolicy, "agentName" | "otherAgents">) => (isKeyWide(p) ? 0 : p.otherAgents ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  const an = a.agentName ?? "";
  const bn = b.agentName ?? "";
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/**
 * The policies among `policies` (at least all of who's key's) that cover a hold by `who`, in check order:
 * the key-wide one, and the agent's own or, when it has none (or names no agent), the default agent policy.
 */
export function coveringPolicies(policies: readonly SpendPolicy[], who: Pick<SpendAttribution, "keyId" | "agentName">): SpendPolicy[] {
  const ofKey = policies.filter((p) => p.keyId === who.keyId);
  const own = who.agentName !== undefined ? ofKey.find((p) => p.agentName === who.agentName) : undefined;
  return ofKey.filter((p) => isKeyWide(p) || p === own || (p.otherAgents && !own)).sort(byPolicyOrder);
}

/** The policies covering `who`, each with what it counts (`policies`: at least all of who's key's): what a hold's step reads usage for. */
export function coveringSpendScopes(
  policies: readonly SpendPolicy[],
  who: Pick<SpendAttribution, "keyId" | "agentName">,
): { policy: SpendPolicy; scope: SpendScope }[] {
  return coveringPolicies(policies, who).map((policy) => ({ policy, scope: spendScopeOf(policy, policies) }));
}

/** The key a store files a policy under: one per (key, agent), "" for the key-wide one and for the default agent policy (told apart by otherAgents). */
export const policyAgentKey = (agentName: string | undefined): string => agentName ?? "";
