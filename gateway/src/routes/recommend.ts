// POST /domains/{d}/capabilities/{id}/recommend: free; the router scores every route for this caller
// and stores the answer: its recommendationId (valid until recommendationExpiresAt) lets an execute pay
// exactly the ranking shown here.
import { Router, type RequestHandler } from "express";
import type { RouterClient } from "@agentic/clients";
import { invalidInput } from "../errors";
import { objectBody } from "./body";
import { parseAgentName } from "@agentic/platform";
import type { Caller } from "../locals";
import { agentOfCaller } from "./caller-agent";
import { parseHeaders, parseParams } from "../http/request-schema";
import { agentHeaders } from "./requests/headers";
import { capabilityParams } from "./requests/capability";

export function recommendRoutes(router: RouterClient, auth: RequestHandler): Router {
  const routes = Router();
  routes.post("/domains/:domainKey/capabilities/:capabilityId/recommend", auth, async (req, res) => {
    const { domainKey, capabilityId } = parseParams(capabilityParams, req);
    const header = parseHeaders(agentHeaders, req)["Agent-Name"];
    const input = withAgentName(objectBody(req), header, res.locals.caller);
    const { catalogVersion: _internal, ...recommendation } = await router.recommend({
      userId: res.locals.caller.userId,
      // The calling key: recommend weighs that key's spend policies, as the execute's hold will.
      keyId: res.locals.caller.keyId,
      domainKey,
      capabilityId,
      input,
      // The body's optimizationPreferences reach the router inside `input`, where it checks them by field.
      optimizationPreferences: [],
      ...maxPriceOf(input),
    });
    res.json(recommendation);
  });
  return routes;
}

/**
 * The agent the call is for, as execute and quote read it: the Agent-Name header (normalized), here
 * also the body's agentName (the recommend contract's field), then checked against the key's agents
 * (agentOfCaller). Both naming different agents is ambiguous. A body agentName that is not a string is
 * left for the router's contract check.
 */
function withAgentName(input: Record<string, unknown>, header: string | undefined, caller: Caller): Record<string, unknown> {
  const given = input.agentName;
  if (given !== undefined && given !== null && typeof given !== "string") return input;
  let body: string | undefined;
  if (typeof input.agentName === "string") {
    const parsed = parseAgentName(input.agentName);
    if ("problem" in parsed) throw invalidInput("agentName", parsed.problem, "Send the calling agent's name, e.g. alpha_agent.");
    body = parsed.name;
  }
  if (header !== undefined && body !== undefined && body !== header)
    throw invalidInput(
      "agentName",
      "names another agent than the Agent-Name header",
      "Name the calling agent once: in Agent-Name, or in agentName.",
    );
  const agentName = agentOfCaller(caller, header ?? body, header !== undefined || body === undefined ? "Agent-Name" : "agentName");
  return agentName === undefined ? input : { ...input, agentName };
}

/** The body's maxPriceCredits, a whole number of credits at least 0, for the router's max_price_credits. */
function maxPriceOf(input: Record<string, unknown>): { maxPriceCredits?: number } {
  const value = input.maxPriceCredits;
  if (value === undefined || value === null) return {};
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalidInput(
      "maxPriceCredits",
      "must be a whole number of credits, at least 0",
      "Send maxPriceCredits as an integer number of credits (1000 credits = 1 USD), or leave it out.",
    );
  }
  return { maxPriceCredits: value };
}
