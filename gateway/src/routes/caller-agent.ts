// The agent a request acts as, from its key and its Agent-Name (normalized). A key issued for one
// agent makes every request that agent's: no header means it, the header may only repeat it. A key
// requiring agents takes only a request naming one of them. Any other key takes the header as sent
// (cooperative: the agent chooses its name). What recommend, execute, quote and the wallet pass on.
import type { Request } from "express";
import { HttpError } from "../errors";
import { parseHeaders } from "../http/request-schema";
import type { Caller } from "../locals";
import { agentHeaders } from "./requests/headers";

/** The agent a request acts as when only its Agent-Name header can name one (wallet, overview, quote). */
export function callerAgentName(req: Request, caller: Caller): string | undefined {
  return agentOfCaller(caller, parseHeaders(agentHeaders, req)["Agent-Name"], "Agent-Name");
}

/**
 * The agent a request naming `named` (normalized, or undefined) acts as under `caller`'s key; `source`
 * (the header, or a body field) is what a 400 names.
 */
export function agentOfCaller(caller: Caller, named: string | undefined, source: string): string | undefined {
  if (caller.agentName !== undefined) {
    if (named === undefined || named === caller.agentName) return caller.agentName;
    throw new HttpError(
      400,
      "INVALID_INPUT",
      `${source}: this API key is agent ${caller.agentName}'s and cannot act as ${named}`,
      `Leave ${source} out or send ${caller.agentName}; another agent needs a key of its own (npm run keys -- create --agent <name>).`,
    );
  }
  if (caller.agentNames !== undefined && (named === undefined || !caller.agentNames.includes(named))) {
    const which = caller.agentNames.join(", ");
    throw new HttpError(
      400,
      "INVALID_INPUT",
      named === undefined
        ? `${source}: this API key requires the calling agent's name, one of ${which}`
        : `${source}: ${named} is not one of this API key's agents (${which})`,
      `Send ${source} with one of ${which}.`,
    );
  }
  return named;
}
