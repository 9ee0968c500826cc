// What an agent name may be, wherever one arrives (the Agent-Name header, a usage filter, an
// ExecuteRequest): 1 to MAX_AGENT_NAME_LENGTH characters once trimmed, no control characters. Each
// boundary words its own refusal (naming its header, parameter or field); the rule is this one.
// And the one form names are compared and stored in (normalizeAgentName), so that an agent cannot
// leave its budget by spelling its name another way ("Alpha", "alpha" with a zero-width space).

/** Longest agent name accepted (the contracts' agentName limit). */
export const MAX_AGENT_NAME_LENGTH = 100;

/** What is wrong with `name` (already trimmed) as an agent name, or undefined when nothing. */
export function agentNameProblem(name: string): string | undefined {
  if (name === "" || name.length > MAX_AGENT_NAME_LENGTH || /\p{Cc}/u.test(name)) {
    return `must be 1 to ${MAX_AGENT_NAME_LENGTH} characters, without control characters`;
  }
  return undefined;
}

/** Format characters (\p{Cf}: zero-width spaces and joiners, bidi marks, the soft hyphen, …): invisible, never part of a name. */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * The form in which agent names are compared and stored (spend policies, holds, keys bound to agents,
 * per-agent preferences): format characters removed, Unicode NFKC ("ａｌｐｈａ" is "alpha"), case folded,
 * NFKC again (folding can undo it), trimmed. Folding is the built-in full case mapping, upper then lower,
 * so "ß" and "SS", "ς" and "Σ" fold alike. Idempotent; "" for a name of invisible characters only, which
 * agentNameProblem then refuses.
 */
export function normalizeAgentName(name: string): string {
  return name
    .replace(FORMAT_CHARACTERS, "")
    .normalize("NFKC")
    .toUpperCase()
    .toLowerCase()
    .normalize("NFKC")
    .replace(FORMAT_CHARACTERS, "")
    .trim();
}

/** `raw` normalized, or what is wrong with it as an agent name (checked after normalizing: NFKC may lengthen it). */
export function parseAgentName(raw: string): { name: string } | { problem: string } {
  const name = normalizeAgentName(raw);
  const problem = agentNameProblem(name);
  return problem === undefined ? { name } : { problem };
}
