// The spend-policy use cases: an admin sets or clears a key's (or an agent's) policy, and anyone who
// reads a wallet sees each applicable policy with its current period. Enforcement is not here: the
// store checks and counts policies inside its hold operation (spend-policy.ts, decideSpend).
import { parseAgentName } from "@agentic/platform/core";
import { apiKeyNotFound, invalidField } from "./errors";
import type { LedgerStore } from "./ports";
import {
  SPEND_RESETS,
  coveringPolicies,
  spendPeriod,
  spendScopeOf,
  type CapabilityCap,
  type SpendPolicy,
  type SpendReset,
  type SpendUsage,
} from "./spend-policy";
import { MAX_CREDITS, requireId } from "./validate";

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
  /** The default agent policy: every agent of the key without a policy of its own (not with agentName). */
  otherAgents?: boolean;
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

/** The policy's agent, normalized as holds' agents are (so "Alpha" and "alpha\u200B" are one agent). */
function optionalAgent(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseAgentName(value);
  if ("problem" in parsed) throw invalidField("agent_name", `agent_name ${parsed.problem}.`, "Name the agent as it sends Agent-Name.");
  return parsed.name;
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

/** The status of `policy` at `now`, reading its usage from the store (`keyPolicies`: all of its key's, which the default agent policy's usage depends on). */
export async function policyStatus(
  store: LedgerStore,
  policy: SpendPolicy,
  keyPolicies: readonly SpendPolicy[],
  now: Date,
): Promise<SpendPolicyStatus> {
  const period = spendPeriod(policy, now);
  const usage = await store.spendUsage(spendScopeOf(policy, keyPolicies), period.start);
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

  /** The policies of the user's active keys, or those covering one key of the user's (and agent); `all`: every policy of those keys. */
  async function policiesOf(userId: string, keyId?: string, agentName?: string): Promise<{ policies: SpendPolicy[]; all: SpendPolicy[] }> {
    // Most keys have no policy: one read answers them (a recommend whose wallet the router holds no answer for reads it), before the key is looked at.
    if (keyId !== undefined && (await store.listSpendPolicies([keyId])).length === 0) return { policies: [], all: [] };
    // A revoked key spends nothing more: its policies no longer apply.
    const keys = (await store.listApiKeys(userId)).filter((k) => !k.revokedAt).map((k) => k.keyId);
    const keyIds = keyId !== undefined ? keys.filter((k) => k === keyId) : keys;
    const all = await store.listSpendPolicies(keyIds);
    if (keyId === undefined)
      return { policies: all.filter((p) => p.agentName === undefined || agentName === undefined || p.agentName === agentName), all };
    return { policies: coveringPolicies(all, { keyId, ...(agentName !== undefined ? { agentName } : {}) }), all };
  }

  /** The statuses of `policies`, whose keys' policies are all in `all`. */
  const statusesOf = (policies: readonly SpendPolicy[], all: readonly SpendPolicy[], at: Date) =>
    Promise.all(policies.map((p) => policyStatus(store, p, all, at)));

  return {
    /** Admin: sets (replaces) a policy, or clears it; API_KEY_NOT_FOUND for an unknown key. */
    async setSpendPolicy(input: SpendPolicyInput, clear: boolean): Promise<SpendPolicyStatus | undefined> {
      const keyId = requireId("policy.key_id", input.keyId);
      const agentName = optionalAgent(input.agentName);
      const otherAgents = input.otherAgents === true;
      if (otherAgents && agentName !== undefined)
        throw invalidField(
          "other_agents",
          "A policy is either one agent's (agent_name) or the default agent policy (other_agents), not both.",
          "Leave agent_name unset for the default agent policy.",
        );
      if (!(await store.getApiKey(keyId))) throw apiKeyNotFound(keyId);
      if (clear) {
        await store.clearSpendPolicy(keyId, agentName, otherAgents);
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
        ...(otherAgents ? { otherAgents: true as const } : {}),
        ...(budgetCredits !== undefined ? { budgetCredits } : {}),
        reset: requireReset(input.reset),
        capabilityCaps,
        ...(maxPriceCredits !== undefined ? { maxPriceCredits } : {}),
        createdAt: at,
        updatedAt: at,
      });
      return policyStatus(store, stored, await store.listSpendPolicies([keyId]), at);
    },

    /** Admin: one key's policies, or every key's of a user. */
    async getSpendPolicies(keyId: string, userId: string): Promise<SpendPolicyStatus[]> {
      if (!keyId && !userId)
        throw invalidField("key_id", "key_id or user_id is required.", "Name the key, or the user whose keys to list.");
      const keyIds = keyId ? [requireId("key_id", keyId)] : (await store.listApiKeys(requireId("user_id", userId))).map((k) => k.keyId);
      const all = await store.listSpendPolicies(keyIds);
      return statusesOf(all, all, now());
    },

    /** The policies that apply to a wallet read (GetWallet): the calling key's and agent's, or all the user's keys'. */
    async walletPolicies(userId: string, keyId?: string, agentName?: string): Promise<SpendPolicyStatus[]> {
      const named = agentName ? parseAgentName(agentName) : undefined;
      const agent = named && "name" in named ? named.name : undefined;
      const { policies, all } = await policiesOf(requireId("user_id", userId), keyId || undefined, agent);
      return statusesOf(policies, all, now());
    },
  };
}
