// POST /domains/{d}/capabilities/{id}/recommend: free; the router scores every route for this caller
// and stores the answer: its recommendationId (valid until recommendationExpiresAt) lets an execute pay
// exactly the ranking shown here.
import { Router, type RequestHandler } from "express";
import type { CapabilityParams } from "./params";
import type { RouterClient } from "@agentic/clients";
import { invalidInput } from "../errors";
import { objectBody } from "./body";
import { agentNameHeader } from "./headers";

export function recommendRoutes(router: RouterClient, auth: RequestHandler): Router {
  const routes = Router();
  routes.post<CapabilityParams>("/domains/:domainKey/capabilities/:capabilityId/recommend", auth, async (req, res) => {
    const input = withAgentName(objectBody(req), agentNameHeader(req));
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
    });
    res.json(recommendation);
  });
  return routes;
}

/**
 * The agent the call is for, as execute and quote read it: the Agent-Name header, here also the
 * body's agentName (the recommend contract's field). Both naming different agents is ambiguous.
 */
function withAgentName(input: Record<string, unknown>, header: string | undefined): Record<string, unknown> {
  if (header === undefined) return input;
  if (input.agentName === undefined || input.agentName === null) return { ...input, agentName: header };
  if (typeof input.agentName === "string" && input.agentName.trim() === header) return input;
  throw invalidInput(
    "agentName",
    "names another agent than the Agent-Name header",
    "Name the calling agent once: in Agent-Name, or in agentName.",
  );
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
