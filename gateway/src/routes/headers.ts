// Request headers of the calls that name an agent or a key (execute, quote, recommend, wallet).
import type { Request } from "express";
import { parseAgentName } from "@agentic/platform";
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

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header value as text. Node reads header bytes as latin1, while clients send names in UTF-8 (HTTP
 * leaves the charset open): bytes that are valid UTF-8 are read as such, so "alpha" + U+200B arrives
 * as that, not as latin1 mojibake; anything else stays latin1.
 */
function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  try {
    return UTF8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

/**
 * The Agent-Name, normalized (normalizeAgentName: "Alpha" and "alpha" with a zero-width space are
 * "alpha"), undefined when absent; a 400 naming the header when repeated or not an agent name once normalized.
 */
export function agentNameHeader(req: Request): string | undefined {
  const value = singleHeader(req, "Agent-Name", AGENT_NAME_HINT);
  if (value === undefined) return undefined;
  const parsed = parseAgentName(headerText(value));
  if ("problem" in parsed) throw new HttpError(400, "INVALID_INPUT", `Agent-Name: ${parsed.problem}`, AGENT_NAME_HINT);
  return parsed.name;
}
