// The checks Execute and Quote make of their request envelope (not the capability's body, which the
// domain checks against the contract): the ids that must be there, and the agent name.
import { invalidArgument, parseAgentName } from "@agentic/platform";

/** Throws INVALID_INPUT naming the first of userId, domainKey, capabilityId that is empty. */
export function requireEnvelopeIds(req: { userId: string; domainKey: string; capabilityId: string }, requestName: string): void {
  for (const field of ["userId", "domainKey", "capabilityId"] as const) {
    if (!req[field]) throw invalidArgument("INVALID_INPUT", `${field} is required`, `Set ${field} on the ${requestName}.`, { field });
  }
}

/**
 * The agent name normalized (normalizeAgentName: what holds, usage and the router's memory are keyed by),
 * undefined when absent; INVALID_INPUT when it breaks the agent-name rule once normalized.
 */
export function agentNameOf(req: { agentName?: string | undefined }): string | undefined {
  if (req.agentName === undefined) return undefined;
  const parsed = parseAgentName(req.agentName);
  if ("problem" in parsed) {
    throw invalidArgument("INVALID_INPUT", `agent name ${parsed.problem}`, "Send a short agent name, e.g. alpha_agent, or leave it out.", {
      field: "agentName",
    });
  }
  return parsed.name;
}
