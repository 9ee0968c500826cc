// Routing: recommend, intent routing, execute and quote.

import { EXECUTION_ID_PATTERN } from "../../errors";
import type { JsonObject } from "../document";
import type { Examples } from "../examples";
import { ref } from "../json-schema";
import { jsonBody, ok, operation, paramRef, routeOperation } from "../operation";
import { PAYMENT_RESPONSE_SCHEMA, ROUTE_DECISION_HEADER } from "../headers";
import { PAYMENT_RESPONSE_HEADER } from "../../payments/x402";

/** What execute and quote both answer: quote plans and prices exactly as execute does before it calls anyone. */
const PLANNING_ERRORS: Record<string, string> = {
  "400": "ExecuteBadRequest",
  "402": "CreditsRequired",
  "403": "SpendLimitExceeded",
  "404": "ExecuteNotFound",
  "409": "ExecuteConflict",
  "410": "ExecuteGone",
  "503": "ExecuteUnavailable",
};

export function routingPaths(ex: Examples): Record<string, Record<string, JsonObject>> {
  const domain = [paramRef("domainKey")];
  const capability = [paramRef("domainKey"), paramRef("capabilityId")];
  const capabilityPath = "/domains/{domainKey}/capabilities/{capabilityId}";
  return {
    [`${capabilityPath}/recommend`]: {
      post: operation({
        operationId: "recommendRoute",
        tag: "Routing",
        summary: "Recommend a route",
        description:
          "Scores every route of the capability for this request and returns the best one with candidates, reasons and what blocks execution. " +
          "Free: never performs the paid operation. Body fields come from the contract's `recommend` block; " +
          "for email.send: `agentName`, `optimizationPreferences` (cost, reliability, speed, quality), `tracking`. An empty body applies defaults. " +
          "An `agentName` sent with `optimizationPreferences` has them remembered for later calls without any, whichever server answers them; " +
          "the Agent-Name header names the agent as on execute (both naming different agents is a 400). " +
          "`maxPriceCredits` (integer >= 0) marks dearer routes as not executable now (`unavailableReasonCode: over_max_price`). " +
          "The answer is kept under `recommendationId` until `recommendationExpiresAt`: an execute naming it pays exactly this ranking.",
        auth: true,
        parameters: [...capability, paramRef("AgentName"), paramRef("candidateLimit")],
        requestBody: {
          required: false,
          description: "Capability-specific recommend input.",
          content: jsonBody(ref("RecommendRequest"), ex.recommendRequest),
        },
        success: ok("The recommendation.", ref("RecommendationResponse"), ex.recommendation),
        errors: { "400": "BadRequest", "404": "CapabilityNotFound", "409": "AgentNamesExhausted" },
      }),
    },
    "/route": { post: routeOperation("routeTask", "Find the capability for a task", "every domain", []) },
    "/domains/{domainKey}/route": {
      post: routeOperation("routeDomainTask", "Find the capability for a task within a domain", "the domain's capabilities only", domain, {
        "404": "DomainNotFound",
      }),
    },
    [`${capabilityPath}/execute`]: {
      post: operation({
        operationId: "executeCapability",
        tag: "Routing",
        summary: "Execute a capability",
        description:
          "Performs the paid operation: validates the body against the contract's `execute` block (the capability's flat fields " +
          'plus the routing controls `provider`, `routeKey` and `allowFallback`; an `{"input": {...}}` wrapper is accepted when no ' +
          "capability field is at the top level), picks a route (pinned with `routeKey` or `provider`, else the router's best " +
          "executable one), holds the route's price, calls the provider over the route's payment rail, then charges exactly " +
          "`creditsCharged` or releases the hold. `allowFallback` defaults to true without a pin and to false with one; a fallback " +
          "runs only when the failed route certainly did not act. Plan controls (extensions of this service, beside the routing controls): " +
          "`optimizationPreferences` (goals from cost, reliability, speed, quality, most important first, as recommend takes them) rank the routes; " +
          "`maxPriceCredits` (integer >= 1): no route costing more is ever tried, fallbacks included (PRICE_ABOVE_MAX when none is under it); " +
          "`recommendationId` runs exactly the ranking a recommend answered, its candidates in order (RECOMMENDATION_NOT_FOUND 404, _EXPIRED 410, _STALE 409, " +
          "never a silent re-rank; not with optimizationPreferences); `quoteId` runs the quoted route at the quoted price with no fallback " +
          "(QUOTE_NOT_FOUND 404, QUOTE_EXPIRED 410, QUOTE_ALREADY_USED 409, QUOTE_MISMATCH 409 when the body is not the one quoted). A bad value is a 400 " +
          "INVALID_INPUT naming the field. The answer's `decision` and the Agentic-Route-Decision header explain the routing. Every error means nothing was " +
          "charged for this request, except TIMEOUT and EXECUTION_INDETERMINATE, whose execution may still end charged: read GET /executions/{executionId}.",
        auth: true,
        parameters: [...capability, paramRef("IdempotencyKey"), paramRef("AgentName"), paramRef("PaymentSignature")],
        requestBody: {
          required: true,
          description:
            'Capability-specific execute input: the contract\'s fields at the top level, or wrapped as `{"input": {...}}` when no capability field is at the top level.',
          content: jsonBody(ref("CapabilityInput"), ex.executeRequest),
        },
        success: {
          ...ok("The execution result.", ref("GenericExecutionResponse"), ex.execution),
          headers: {
            "Execution-Id": {
              description: "Id of the execution: read where it stands at GET /executions/{executionId}.",
              schema: { type: "string", pattern: EXECUTION_ID_PATTERN.source },
            },
            "Idempotent-Replayed": {
              description: "`true` when this is the stored result of an earlier request with the same Idempotency-Key.",
              schema: { type: "string", enum: ["true"] },
            },
            [PAYMENT_RESPONSE_HEADER]: {
              ...PAYMENT_RESPONSE_SCHEMA,
              description: `Sent when the request carried PAYMENT-SIGNATURE: ${PAYMENT_RESPONSE_SCHEMA.description as string}`,
            },
            "Agentic-Route-Decision": ROUTE_DECISION_HEADER,
          },
        },
        errors: { ...PLANNING_ERRORS, "429": "ExecuteTooManyRequests", "502": "ProviderError", "504": "ExecuteTimeout" },
      }),
    },
    [`${capabilityPath}/quote`]: {
      post: operation({
        operationId: "quoteCapability",
        tag: "Routing",
        summary: "Quote an execution",
        description:
          "Extension of this service. Takes the execute body, checks it and picks the route exactly as execute would (pins, plan controls, the router's ranking), " +
          "prices it as execute would hold it, and reserves that price in the wallet until `expiresAt` (QUOTE_TTL_MS, 5 minutes by default). " +
          "An execute with the same body plus `quoteId` then runs on that route at that price, once, without fallback. An unused quote's credits return when it expires. " +
          "A body with `quoteId` is a 400. Nothing is called at the provider. An open quote counts against the spend policies its execute would (403 " +
          "SPEND_LIMIT_EXCEEDED, 409 PRICE_ABOVE_MAX when they have no room for it), and one API key has at most 20 open quotes (429 TOO_MANY_OPEN_QUOTES).",
        auth: true,
        parameters: [...capability, paramRef("AgentName")],
        requestBody: {
          required: true,
          description: "The execute body to quote (without `quoteId`).",
          content: jsonBody(ref("CapabilityInput"), ex.executeRequest),
        },
        success: { ...ok("The quote.", ref("QuoteResponse"), ex.quote), headers: { "Agentic-Route-Decision": ROUTE_DECISION_HEADER } },
        errors: { ...PLANNING_ERRORS, "429": "QuoteTooManyRequests" },
      }),
    },
  };
}
