// POST /domains/{d}/capabilities/{id}/recommend: free; the router scores every route for this caller
// and stores the answer: its recommendationId (valid until recommendationExpiresAt) lets an execute pay
// exactly the ranking shown here. `?limit=N` answers the best N candidates in full and counts the
// rest (candidatesOmitted), so a capability with hundreds of routes answers a few kilobytes.
import { Router, type RequestHandler } from "express";
import type { RouterClient } from "@agentic/clients";
import { invalidInput } from "../errors";
import { assertJsonBody } from "./body";
import type { Caller } from "../locals";
import { agentOfCaller } from "./caller-agent";
import { parseBody, parseHeaders, parseParams, parseQuery } from "../http/request-schema";
import { agentHeaders } from "./requests/headers";
import { capabilityParams } from "./requests/capability";
import { RECOMMEND_FIELDS, recommendBody } from "./requests/capability-input";
import { recommendQuery } from "./requests/recommend-query";
import { sendRecommendation } from "./send-recommendation";

export function recommendRoutes(router: RouterClient, auth: RequestHandler): Router {
  const routes = Router();
  routes.post("/domains/:domainKey/capabilities/:capabilityId/recommend", auth, async (req, res) => {
    const { domainKey, capabilityId } = parseParams(capabilityParams, req);
    const { limit: candidateLimit } = parseQuery(recommendQuery, req);
    const header = parseHeaders(agentHeaders, req)["Agent-Name"];
    assertJsonBody(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const { agentName, maxPriceCredits } = parseBody(recommendBody, body, {
      hint: "Send the capability's input as a JSON object; see its contract.",
      shape: RECOMMEND_FIELDS,
      nullIsAbsent: true,
    });
    const input = withAgentName(body, header, agentName, res.locals.caller);
    const answer = await router.recommend({
      userId: res.locals.caller.userId,
      // The calling key: recommend weighs that key's spend policies, as the execute's hold will.
      keyId: res.locals.caller.keyId,
      domainKey,
      capabilityId,
      input,
      // The body's optimizationPreferences reach the router inside `input`, where it checks them by field.
      optimizationPreferences: [],
      ...(maxPriceCredits === undefined ? {} : { maxPriceCredits }),
      ...(candidateLimit === undefined ? {} : { candidateLimit }),
      // The router answers the REST body's bytes, compiled once (the text it stored): written as they come.
      answerAsJson: true,
    });
    sendRecommendation(res, answer);
  });
  return routes;
}

/**
 * The agent the call is for, as execute and quote read it: the Agent-Name header (normalized), here
 * also the body's agentName (the recommend contract's field, normalized by recommendBody), then checked
 * against the key's agents (agentOfCaller). Both naming different agents is ambiguous. A body agentName
 * that is not a string is left for the router's contract check.
 */
function withAgentName(
  input: Record<string, unknown>,
  header: string | undefined,
  body: string | undefined,
  caller: Caller,
): Record<string, unknown> {
  const given = input.agentName;
  if (given !== undefined && given !== null && typeof given !== "string") return input;
  if (header !== undefined && body !== undefined && body !== header)
    throw invalidInput(
      "agentName",
      "names another agent than the Agent-Name header",
      "Name the calling agent once: in Agent-Name, or in agentName.",
    );
  const agentName = agentOfCaller(caller, header ?? body, header !== undefined || body === undefined ? "Agent-Name" : "agentName");
  return agentName === undefined ? input : { ...input, agentName };
}
