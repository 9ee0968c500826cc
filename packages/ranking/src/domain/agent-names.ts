// How many agent names one user may have preferences remembered for: each user keeps an index of the
// names it has (each with when it was last admitted), and a name beyond the cap is refused, so free
// recommends under ever new names cannot fill the shared JetStream storage. Pure: the store keeps the
// index next to the preferences and writes it with compare-and-set.
import { AppError, failedPrecondition } from "@agentic/platform/core";

/** The code of the refusal of one agent name too many. */
export const AGENT_NAMES_EXHAUSTED = "AGENT_NAMES_EXHAUSTED";

/** One user's remembered agent names: an opaque id per name → when it was last admitted, ms since the epoch. */
export type AgentNameIndex = Readonly<Record<string, number>>;

export interface AgentNameLimits {
  /** Most names remembered at once (AGENT_NAMES_PER_USER_MAX). */
  maxNames: number;
  /** How long a name's preferences live after their last write, in ms (AGENT_PREFERENCES_TTL_MS). */
  ttlMs: number;
}

/**
 * A name's entry is refreshed at most this often (a write of the index per agent and period, not per
 * call), and kept this much past the TTL, so it outlives the preferences it stands for.
 */
export function refreshPeriodMs(ttlMs: number): number {
  return Math.min(Math.ceil(ttlMs / 10), 86_400_000);
}

/**
 * The index after `agentId` gave preferences at `nowMs`: undefined when nothing needs writing (the
 * name is known and recently admitted). Names unused for longer than their preferences live are
 * dropped. Throws AGENT_NAMES_EXHAUSTED for a new name when the user already has `maxNames`.
 */
export function admitAgentName(index: AgentNameIndex, agentId: string, nowMs: number, limits: AgentNameLimits): AgentNameIndex | undefined {
  const refreshMs = refreshPeriodMs(limits.ttlMs);
  const seen = index[agentId];
  if (seen !== undefined && nowMs - seen < refreshMs) return undefined;
  const live = Object.entries(index).filter(([id, at]) => id !== agentId && nowMs - at < limits.ttlMs + refreshMs);
  if (seen === undefined && live.length >= limits.maxNames) throw agentNamesExhausted(limits);
  return Object.fromEntries([...live, [agentId, nowMs]]);
}

/** The refusal of one agent name too many (a 409: what the account holds, not what this request says, is in the way). */
export function agentNamesExhausted(limits: AgentNameLimits): AppError {
  const days = Math.round(limits.ttlMs / 86_400_000);
  return failedPrecondition(
    AGENT_NAMES_EXHAUSTED,
    `This account already has optimization preferences remembered for ${limits.maxNames} agent names, the most it may.`,
    `Use one of your existing agent names, or send the request without agentName (nothing is remembered then); ` +
      `a name unused for ${days > 0 ? `${days} days` : `${limits.ttlMs} ms`} is forgotten and frees its place.`,
    { maxAgentNames: limits.maxNames },
  );
}

/** Whether `err` is the refusal of one agent name too many. */
export function isAgentNamesExhausted(err: unknown): boolean {
  return err instanceof AppError && err.code === AGENT_NAMES_EXHAUSTED;
}
