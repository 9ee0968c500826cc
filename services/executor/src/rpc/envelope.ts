// The checks Execute and Quote make of their request envelope (not the capability's body, which the
// domain checks against the contract): the ids that must be there, and the agent name.
import { agentNameProblem, invalidArgument } from "@agentic/platform";

/** Throws INVALID_INPUT naming the first of userId, domainKey, capabilityId that is empty. */
export function requireEnvelopeIds(req: { userId: string; domainKey: string; capabilityId: string }, requestName: string): void {
  for (const field of ["userId", "domainKey", "capabilityId"] as const) {
    if (!req[field]) throw invalidArgument("INVALID_INPUT", `${field} is required`, `Set ${field} on the ${requestName}.`, { field });
  }
}

/** The trimmed agent name, undefined when absent; INVALID_INPUT when it breaks the agent-name rule (agentNameProblem). */
export function agentNameOf(req: { agentName?: string | undefined }): string | undefined {
  if (req.agentName === undefined) return undefined;
  const agentName = req.agentName.trim();
  const problem = agentNameProblem(agentName);
  if (problem) {
    throw invalidArgument("INVALID_INPUT", `agent name ${problem}`, "Send a short agent name, e.g. alpha_agent, or leave it out.", {
      field: "agentName",
    });
  }
  return agentName;
}
