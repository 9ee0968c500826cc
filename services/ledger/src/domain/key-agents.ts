// Which agents a key's requests may be: any (the Agent-Name header names the agent, cooperatively),
// exactly one (the key was issued for that agent: whatever header a request carries, it is that
// agent's), or one of a set (a request must name one of them). Fixed when the key is created, so a
// gateway's cached answer for a key never goes stale on it. Names are normalized (normalizeAgentName).
import { parseAgentName } from "@agentic/platform/core";
import { invalidField } from "./errors";

/** Most agents one key may require a name from. */
export const MAX_KEY_AGENT_NAMES = 100;

/** A key's agents: `agentName` (issued for one agent) or `agentNames` (one of these required), or neither. */
export interface KeyAgents {
  agentName?: string;
  agentNames?: string[];
}

function agentNameOf(field: string, raw: string): string {
  const parsed = parseAgentName(raw);
  if ("problem" in parsed) throw invalidField(field, `${field} ${parsed.problem}.`, "Name the agent as it sends Agent-Name, e.g. alpha.");
  return parsed.name;
}

/** The agents of a new key from CreateApiKey's fields, normalized; INVALID_ARGUMENT when both are set or a name breaks the rule. */
export function requireKeyAgents(agentName: string | undefined, agentNames: readonly string[]): KeyAgents {
  if (agentName !== undefined && agentNames.length > 0)
    throw invalidField(
      "agent_names",
      "A key is issued for one agent (agent_name) or requires one of several (agent_names), not both.",
      "Set agent_name for a key of one agent, or agent_names for a key its agents must name themselves with.",
    );
  if (agentName !== undefined) return { agentName: agentNameOf("agent_name", agentName) };
  if (agentNames.length === 0) return {};
  if (agentNames.length > MAX_KEY_AGENT_NAMES)
    throw invalidField("agent_names", `At most ${MAX_KEY_AGENT_NAMES} agent names.`, "Issue a key per group of agents.");
  const names = agentNames.map((n, i) => agentNameOf(`agent_names[${i}]`, n));
  return { agentNames: [...new Set(names)] };
}
