// POST /domains/{d}/capabilities/{id}/recommend: free; the router scores every route for this caller
// and stores the answer: its recommendationId (valid until recommendationExpiresAt) lets an execute pay
// exactly the ranking shown here. `?limit=N` answers the best N candidates in full and counts the
// rest (candidatesOmitted), so a capability with hundreds of routes answers a few kilobytes.
import { Router, type RequestHandler } from "express";
import type { CapabilityParams } from "./params";
import type { RouterClient } from "@agentic/clients";
import { invalidInput } from "../errors";
import { objectBody } from "./body";
import { parseAgentName } from "@agentic/platform";
import type { Caller } from "../locals";
import { agentOfCaller } from "./caller-agent";
import { agentNameHeader } from "./headers";
import { single } from "./wallet";
import { MAX_PAGE_LIMIT } from "../catalog/paging";

export function recommendRoutes(router: RouterClient, auth: RequestHandler): Router {
  const routes = Router();
  routes.post<CapabilityParams>("/domains/:domainKey/capabilities/:capabilityId/recommend", auth, async (req, res) => {
    const candidateLimit = candidateLimitOf(single(req, "limit"));
    const input = withAgentName(objectBody(req), agentNameHeader(req), res.locals.caller);
    const { catalogVersion: _internal, ...recommendation } = await router.recommend({
      userId: res.locals.caller.userId,
      // The calling key: recommend weighs that key's spend policies, as the execute's hold will.
      keyId: res.locals.caller.keyId,
      domainKey: req.params.domainKey,
      capabilityId: req.params.capabilityId,
      input,
      // The body's optimizationPreferences reach the router inside `input`, where it checks them by field.
      optimizationPreferences: [],
      ...maxPriceOf(input),
      ...(candidateLimit === undefined ? {} : { candidateLimit }),
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

/** `?limit=`: how many candidates to answer in full, 1 to MAX_PAGE_LIMIT; undefined when not sent. */
function candidateLimitOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) {
    throw invalidInput(
      "limit",
      `must be an integer from 1 to ${MAX_PAGE_LIMIT}`,
      `Send ?limit= between 1 and ${MAX_PAGE_LIMIT} to list that many candidates in full, or leave it out for all of them.`,
    );
  }
  return limit;
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
