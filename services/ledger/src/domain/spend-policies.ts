// The spend-policy use cases: an admin sets or clears a key's (or an agent's) policy, and anyone who
// reads a wallet sees each applicable policy with its current period. Enforcement is not here: the
// store checks and counts policies inside its hold operation (spend-policy.ts, decideSpend).
import { apiKeyNotFound, invalidField } from "./errors";
import type { LedgerStore } from "./ports";
import {
  SPEND_RESETS,
  coveringPolicies,
  decideSpend,
  spendPeriod,
  type CapabilityCap,
  type SpendAttribution,
  type SpendPolicy,
  type SpendRefusal,
  type SpendReset,
  type SpendUsage,
} from "./spend-policy";
import { MAX_AGENT_NAME_LENGTH, MAX_CREDITS, requireId } from "./validate";

const MAX_CAPS = 100;

/** A policy and its current period, as GetWallet and GetSpendPolicies show it. */
export interface SpendPolicyStatus {
  policy: SpendPolicy;
  periodStart: Date;
  resetsAt?: Date;
  usage: SpendUsage;
  remainingCredits?: number;
}

/** A policy as SetSpendPolicy asks for it (before validation). */
export interface SpendPolicyInput {
  keyId: string;
  agentName?: string;
  budgetCredits?: number;
  reset: string;
  capabilityCaps: { capabilityKey: string; maxCredits?: number; maxCount?: number }[];
  maxPriceCredits?: number;
}

function optionalLimit(field: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_CREDITS)
    throw invalidField(field, `${field} must be a whole number from 1 to ${MAX_CREDITS}.`, `Fix ${field}, or leave it unset for no limit.`);
  return value;
}

function optionalAgent(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.trim();
  if (!name || name.length > MAX_AGENT_NAME_LENGTH || /\p{Cc}/u.test(name))
    throw invalidField(
      "agent_name",
      `agent_name must be 1..${MAX_AGENT_NAME_LENGTH} characters.`,
      "Name the agent as it sends Agent-Name.",
    );
  return name;
}

function requireReset(value: string): SpendReset {
  if (!(SPEND_RESETS as readonly string[]).includes(value))
    throw invalidField(
      "reset",
      `reset must be one of ${SPEND_RESETS.join(", ")}.`,
      "Pick a calendar period (UTC), or none for a one-off allowance.",
    );
  return value as SpendReset;
}

function requireCaps(caps: SpendPolicyInput["capabilityCaps"]): CapabilityCap[] {
  if (caps.length > MAX_CAPS) throw invalidField("capability_caps", `At most ${MAX_CAPS} capability caps.`, "Cap fewer capabilities.");
  const seen = new Set<string>();
  return caps.map((c, i) => {
    const capabilityKey = requireId(`capability_caps[${i}].capability_key`, c.capabilityKey);
    if (seen.has(capabilityKey))
      throw invalidField("capability_caps", `${capabilityKey} is capped twice.`, "Give each capability one cap.");
    seen.add(capabilityKey);
    const maxCredits = optionalLimit(`capability_caps[${i}].max_credits`, c.maxCredits);
    const maxCount = optionalLimit(`capability_caps[${i}].max_count`, c.maxCount);
    if (maxCredits === undefined && maxCount === undefined)
      throw invalidField(`capability_caps[${i}]`, `The cap on ${capabilityKey} sets no limit.`, "Set max_credits, max_count or both.");
    return { capabilityKey, ...(maxCredits !== undefined ? { maxCredits } : {}), ...(maxCount !== undefined ? { maxCount } : {}) };
  });
}

/** The status of `policy` at `now`, reading its usage from the store. */
export async function policyStatus(store: LedgerStore, policy: SpendPolicy, now: Date): Promise<SpendPolicyStatus> {
  const period = spendPeriod(policy, now);
  const usage = await store.spendUsage(policy, period.start);
  return {
    policy,
    periodStart: period.start,
    ...(period.resetsAt ? { resetsAt: period.resetsAt } : {}),
    usage,
    ...(policy.budgetCredits !== undefined ? { remainingCredits: Math.max(0, policy.budgetCredits - usage.spentCredits) } : {}),
  };
}

export function createSpendPolicies(deps: { store: LedgerStore; now: () => Date }) {
  const { store, now } = deps;

  /** The policies of the user's active keys, or of one key of the user's. */
  async function policiesOf(userId: string, keyId?: string, agentName?: string): Promise<SpendPolicy[]> {
    // Most keys have no policy: one read answers them (every recommend reads the wallet), before the key is looked at.
    if (keyId !== undefined && (await store.listSpendPolicies([keyId])).length === 0) return [];
    // A revoked key spends nothing more: its policies no longer apply.
    const keys = (await store.listApiKeys(userId)).filter((k) => !k.revokedAt).map((k) => k.keyId);
    const keyIds = keyId !== undefined ? keys.filter((k) => k === keyId) : keys;
    const all = await store.listSpendPolicies(keyIds);
    if (keyId === undefined) return all.filter((p) => p.agentName === undefined || agentName === undefined || p.agentName === agentName);
    return coveringPolicies(all, { keyId, ...(agentName !== undefined ? { agentName } : {}) });
  }

  return {
    /** Admin: sets (replaces) a policy, or clears it; API_KEY_NOT_FOUND for an unknown key. */
    async setSpendPolicy(input: SpendPolicyInput, clear: boolean): Promise<SpendPolicyStatus | undefined> {
      const keyId = requireId("policy.key_id", input.keyId);
      const agentName = optionalAgent(input.agentName);
      const keys = await store.listApiKeys();
      if (!keys.some((k) => k.keyId === keyId)) throw apiKeyNotFound(keyId);
      if (clear) {
        await store.clearSpendPolicy(keyId, agentName);
        return undefined;
      }
      const at = now();
      const budgetCredits = optionalLimit("budget_credits", input.budgetCredits);
      const maxPriceCredits = optionalLimit("max_price_credits", input.maxPriceCredits);
      const capabilityCaps = requireCaps(input.capabilityCaps);
      if (budgetCredits === undefined && maxPriceCredits === undefined && capabilityCaps.length === 0)
        throw invalidField(
          "policy",
          "The policy sets no limit.",
          "Set a budget, a capability cap or a maximum price, or clear the policy.",
        );
      const stored = await store.setSpendPolicy({
        keyId,
        ...(agentName !== undefined ? { agentName } : {}),
        ...(budgetCredits !== undefined ? { budgetCredits } : {}),
        reset: requireReset(input.reset),
        capabilityCaps,
        ...(maxPriceCredits !== undefined ? { maxPriceCredits } : {}),
        createdAt: at,
        updatedAt: at,
      });
      return policyStatus(store, stored, at);
    },

    /** Admin: one key's policies, or every key's of a user. */
    async getSpendPolicies(keyId: string, userId: string): Promise<SpendPolicyStatus[]> {
      if (!keyId && !userId)
        throw invalidField("key_id", "key_id or user_id is required.", "Name the key, or the user whose keys to list.");
      const keyIds = keyId ? [requireId("key_id", keyId)] : (await store.listApiKeys(requireId("user_id", userId))).map((k) => k.keyId);
      const at = now();
      return Promise.all((await store.listSpendPolicies(keyIds)).map((p) => policyStatus(store, p, at)));
    },

    /**
     * What the covering policies would refuse if `who` held `amountCredits` now (read only: a quote is
     * told before its execute holds; the hold's own check stays the one that counts); null when allowed.
     */
    async wouldRefuse(userId: string, who: SpendAttribution, amountCredits: number): Promise<SpendRefusal | null> {
      if (!who.keyId) return null;
      const at = now();
      const statuses = await Promise.all(
        (await policiesOf(requireId("user_id", userId), who.keyId, who.agentName)).map((p) => policyStatus(store, p, at)),
      );
      return decideSpend(
        statuses.map((s) => ({ policy: s.policy, usage: s.usage })),
        who,
        amountCredits,
        at,
      );
    },

    /** The policies that apply to a wallet read (GetWallet): the calling key's and agent's, or all the user's keys'. */
    async walletPolicies(userId: string, keyId?: string, agentName?: string): Promise<SpendPolicyStatus[]> {
      const at = now();
      const policies = await policiesOf(requireId("user_id", userId), keyId || undefined, agentName || undefined);
      return Promise.all(policies.map((p) => policyStatus(store, p, at)));
    },
  };
}
