// Request headers of the calls that name an agent or a key (execute, quote, recommend, wallet).
import type { Request } from "express";
import { agentNameProblem } from "@agentic/platform";
import { HttpError } from "../errors";

/**
 * A header's single value, or undefined when absent. A repeated header is a 400: which of two keys
 * would apply is ambiguous (Node joins repeated custom headers with ", ", so the distinct values
 * are read). Lengths and characters are checked by the executor.
 */
export function singleHeader(req: Request, name: string, hint: string): string | undefined {
  const values = req.headersDistinct[name.toLowerCase()];
  if (values === undefined) return undefined;
  if (values.length > 1) throw new HttpError(400, "INVALID_INPUT", `${name}: must be sent once, not ${values.length} times`, hint);
  return values[0];
}

/** The hint of a repeated Agent-Name. */
export const AGENT_NAME_HINT = "Send the calling agent's name, e.g. alpha_agent, once in Agent-Name, or leave it out.";

/** The trimmed Agent-Name, undefined when absent; a 400 naming the header when repeated or not an agent name. */
export function agentNameHeader(req: Request): string | undefined {
  const value = singleHeader(req, "Agent-Name", AGENT_NAME_HINT)?.trim();
  if (value === undefined) return undefined;
  const problem = agentNameProblem(value);
  if (problem) throw new HttpError(400, "INVALID_INPUT", `Agent-Name: ${problem}`, AGENT_NAME_HINT);
  return value;
}
