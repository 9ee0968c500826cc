// What an agent name may be, wherever one arrives (the Agent-Name header, a usage filter, an
// ExecuteRequest): 1 to MAX_AGENT_NAME_LENGTH characters once trimmed, no control characters. Each
// boundary words its own refusal (naming its header, parameter or field); the rule is this one.

/** Longest agent name accepted (the contracts' agentName limit). */
export const MAX_AGENT_NAME_LENGTH = 100;

/** What is wrong with `name` (already trimmed) as an agent name, or undefined when nothing. */
export function agentNameProblem(name: string): string | undefined {
  if (name === "" || name.length > MAX_AGENT_NAME_LENGTH || /\p{Cc}/u.test(name)) {
    return `must be 1 to ${MAX_AGENT_NAME_LENGTH} characters, without control characters`;
  }
  return undefined;
}
