// components.schemas of routing: recommend, intent routing, execute and quote.

import {
  withDescription,
  arrayOf,
  bool,
  freeForm,
  int,
  nullableStr,
  num,
  objectSchema,
  oneOfValues,
  opt,
  ref,
  req,
  str,
  strings,
  routeMode,
} from "../json-schema";
import { jsonSchemaOf } from "../from-zod";
import { routeTaskBody } from "../../routes/requests/route-task";
import { recommendBody } from "../../routes/requests/capability-input";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

export function routingSchemas(ex: Examples): Partial<Record<SchemaName, JsonObject>> {
  return {
    RecommendationResponse: objectSchema(
      "The route the service would take for a request, with the reasoning. Recommend never performs the paid operation.",
      {
        success: req(bool("Always true.", { const: true })),
        productKey: opt(str("`<domainKey>.<capabilityId>`.")),
        preferenceSource: opt(
          oneOfValues(
            ["request", "agent", "default"],
            "Where the applied preferences came from: `request` (this body), `agent` (the ones this Agent-Name last sent) or `default`.",
          ),
        ),
        optimizationPreferences: opt(strings("Preferences actually applied, in priority order (cost, reliability, speed, quality).")),
        recommendedProvider: req(str()),
        recommendedRouteKey: req(str()),
        recommendedRouteMode: req(routeMode()),
        canExecuteNow: req(bool("Whether the recommended route can be executed at once.")),
        bestExecutableProvider: opt(str()),
        bestExecutableRouteKey: opt(str()),
        bestExecutableRouteMode: opt(routeMode()),
        bestWorkflowRecommendation: opt(ref("WorkflowRecommendation")),
        blockingRequirements: req(strings("What prevents execution now; empty when nothing blocks.")),
        nextActions: req(strings()),
        candidates: req(arrayOf(ref("RecommendationCandidate"))),
        workflowRecommendations: req(arrayOf(ref("WorkflowRecommendation"))),
        recommendationId: req(
          str(
            "Extension of this service: the id this answer is kept under; an execute naming it runs exactly this ranking, candidates in order, at these prices.",
            { examples: ["rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f"] },
          ),
        ),
        recommendationExpiresAt: req(
          str("Extension of this service: until when `recommendationId` can be used (10 minutes after the answer by default).", {
            format: "date-time",
          }),
        ),
      },
      { examples: [ex.recommendation] },
    ),

    RecommendRequest: jsonSchemaOf(recommendBody),
    RouteTaskRequest: jsonSchemaOf(routeTaskBody),
    RouteTaskResponse: objectSchema(
      "The capabilities that do the task, best first; whether nothing does; what the words say about how to run it.",
      {
        task: req(str("The task as read (trimmed).")),
        matches: req(
          arrayOf(
            ref("RouteTaskMatch"),
            "Best first (score, then capability key). When `abstained`, the nearest ones, each below the threshold.",
          ),
        ),
        abstained: req(bool("True when nothing in the catalog does the task: no match scores at the threshold (0.5).")),
        constraints: req(ref("TaskConstraints")),
        catalogVersion: req(str("Catalog version the answer was computed from.")),
      },
      {
        examples: [
          {
            task: "tell ana@example.com the invoice is attached, cheapest, under 20 credits",
            matches: [
              {
                capabilityKey: "email.send",
                domainKey: "email",
                capabilityId: "send",
                label: "Email Send",
                status: "live",
                score: 0.91,
                why: "matched attach (synonyms, fields), email (label, key, synonyms), invoic (synonyms, examples)",
                startingPriceCredits: 10,
                contractPath: "/api/agentic-api/domains/email/capabilities/send/contract",
                recommendPath: "/api/agentic-api/domains/email/capabilities/send/recommend",
              },
            ],
            abstained: false,
            constraints: { optimizationPreferences: ["cost"], maxPriceCredits: 20, fields: { to: "ana@example.com" } },
            catalogVersion: "3f9a0c1d2b4e5f60",
          },
        ],
      },
    ),
    RouteTaskMatch: objectSchema("One capability that may do the task.", {
      capabilityKey: req(str()),
      domainKey: req(str()),
      capabilityId: req(str()),
      label: req(str()),
      status: req(oneOfValues(["live", "recommend_only"])),
      score: req(num("0-1, comparable across tasks; at or above 0.5 the capability does the task.", { minimum: 0, maximum: 1 })),
      why: req(str("The task's words (as stems) that matched, each with the capability's fields that hold it.")),
      startingPriceCredits: req(withDescription({ type: ["number", "null"] }, "Price of the cheapest live route, in credits.")),
      contractPath: req(nullableStr("Server-relative path of the capability's contract.")),
      recommendPath: req(nullableStr("Server-relative path of the capability's recommend call.")),
      canExecuteNow: opt(bool("Top match only, when the request sent an API key: whether its recommended route can run now for that key.")),
    }),
    TaskConstraints: objectSchema("What the task says about how to run it.", {
      optimizationPreferences: req(
        arrayOf(oneOfValues(["cost", "reliability", "speed", "quality"]), 'Goals in the order the task names them ("cheapest" -> cost).'),
      ),
      maxPriceCredits: opt(
        int(
          'The most the task will pay for one run, in credits (1000 credits = 1 USD): "under 20 credits" -> 20, "less than 5 cents" -> 50.',
          { minimum: 0 },
        ),
      ),
      provider: opt(str('Provider key the task pins ("via Postmark" -> postmark).')),
      fields: req(
        withDescription(
          { type: "object", additionalProperties: { type: "string" } },
          "Execute fields of the top match that the words fill (an address for `to`, a ticker for `symbol`, a time zone).",
        ),
      ),
    }),
    RecommendationCandidate: objectSchema(
      "One scored route.",
      {
        provider: req(str()),
        routeKey: req(str()),
        routeMode: req(routeMode()),
        canExecuteNow: req(bool()),
        score: req(num()),
        priceCredits: req(num(undefined, { minimum: 0 })),
        trackingSupported: opt(bool()),
        supportedFeatures: req(strings()),
        settlementRail: opt(str()),
        blockingRequirements: req(strings()),
        nextActions: req(strings()),
        reasons: req(strings()),
        unavailableReasonCode: opt(
          str(
            "Extension of this service, set when `canExecuteNow` is false: one machine code for the first blocking requirement: `gated`, `planned`, `breaker_open`, `missing_feature`, `resource_unsupported`, `redirect_only`, `byo_credentials_required`, `over_max_price` (above the body's `maxPriceCredits`), `spend_limit_exceeded` (a spend policy of the calling key or of its agent), `vendor_quota_exhausted` (the vendor plan's quota, or the caller's share of it, is spent this window) or `credits_required`.",
            { examples: ["credits_required"] },
          ),
        ),
      },
      { examples: [ex.candidate] },
    ),

    WorkflowRecommendation: objectSchema(
      "A suggested sequence of calls, e.g. acquire a resource and then execute.",
      {
        workflowType: req(str()),
        summary: req(str()),
        managedAfterAcquisition: opt(bool()),
        acquisitionCapabilityKey: opt(str()),
        acquisitionRouteKey: opt(str()),
        acquisitionProvider: opt(str()),
        acquisitionPriceCredits: opt(num(undefined, { minimum: 0 })),
        executeRouteKey: opt(str()),
        executeProvider: opt(str()),
        executePriceCredits: opt(num(undefined, { minimum: 0 })),
        estimatedFirstExecutionTotalCredits: opt(num(undefined, { minimum: 0 })),
        recurringExecutionCredits: opt(num(undefined, { minimum: 0 })),
        blockingRequirements: req(strings()),
        nextActions: req(strings()),
        reasons: req(strings()),
      },
      { examples: [ex.workflow] },
    ),

    GenericExecutionResponse: objectSchema(
      "Result of a paid execution.",
      {
        success: req(bool("Always true.", { const: true })),
        status: opt(
          str("Result status: `sent` (email send), `created` (inbox buy), `quoted` (broadcast quote) or `succeeded`.", {
            examples: ["sent"],
          }),
        ),
        provider: opt(str("Provider of the route that served the call (after any fallback).")),
        routeKey: opt(str("Route that served the call (after any fallback).")),
        creditsCharged: opt(
          num(
            "Credits charged for this execution: the price of the route that served it, or on a `per_token` route the tokens the vendor reported (`usage`) at the model's prices, rounded up, never more than was held.",
            { minimum: 0 },
          ),
        ),
        providerMessageId: opt(str("The provider's id for what it did (email id, inbox id, quote id), when it gives one.")),
        data: opt(freeForm("Capability-specific result.")),
        usage: opt(
          objectSchema("Extension of this service: the tokens the vendor reported for the call (model routes).", {
            inputTokens: req(int("Input (prompt) tokens.", { minimum: 0 })),
            outputTokens: req(int("Output (completion) tokens.", { minimum: 0 })),
          }),
        ),
        decision: req({
          ...ref("RouteDecision"),
          description: "Extension of this service: how the route was chosen (also the `Agentic-Route-Decision` header).",
        }),
      },
      { examples: [ex.execution] },
    ),

    RouteDecision: objectSchema(
      "Extension of this service: the explained routing of an execution. A replay under the same Idempotency-Key carries the decision of the first answer; " +
        "the usage item of the attempt that ended the execution carries it too.",
      {
        servedRouteKey: req(str("The route that served the call (empty on a quote: nothing ran yet).")),
        attempts: req(
          arrayOf(
            objectSchema("One provider attempt.", {
              routeKey: req(str()),
              provider: req(str()),
              outcome: req(str("`ok`, or what failed: `timeout`, `http_5xx`, `http_4xx`, `payment`, `network`, `invalid_response`.")),
              latencyMs: req(int("Duration of the provider call, payment handshake included.", { minimum: 0 })),
              errorCode: opt(
                str("The failed attempt's error code: PROVIDER_ERROR, PROVIDER_TIMEOUT, PROVIDER_REJECTED_INPUT or PAYMENT_FAILED."),
              ),
            }),
            "Every provider attempt in order, the serving one last.",
          ),
        ),
        notTried: req(
          arrayOf(
            objectSchema("A route of the capability that was not tried.", {
              routeKey: req(str()),
              provider: req(str()),
              reason: req(
                oneOfValues(
                  [
                    "pinned_elsewhere",
                    "fallback_off",
                    "over_max_price",
                    "breaker_open",
                    "missing_feature",
                    "router_blocked",
                    "gated",
                    "planned",
                    "unavailable",
                    "input_not_served",
                    "credits_required",
                    "vendor_quota",
                    "not_reached",
                  ],
                  "Why: a `routeKey`/`provider` pin chose another route; `allowFallback` is false; its price is above `maxPriceCredits`; its breaker is open; " +
                    "it lacks a feature the body asks for; the router blocked it otherwise; the catalog gates it; it is not live yet; this deployment cannot run it; " +
                    "it cannot take this input (model, resource, a value it cannot send); the wallet could not cover it and a cheaper route ran; its vendor quota (or the caller's share) is spent this window; fallback stopped before it.",
                ),
              ),
              detail: req(str("The reason in words.")),
            }),
            "Every other route of the capability, with why.",
          ),
        ),
      },
      { examples: [ex.routeDecision] },
    ),

    QuoteResponse: objectSchema(
      "Extension of this service: a reserved price. An execute with the same body plus `quoteId` runs on `routeKey` at `priceCredits` until `expiresAt`.",
      {
        success: req(bool("Always true.", { const: true })),
        quoteId: req(str("Send it as `quoteId` in the execute body.")),
        routeKey: req(str("The route the quoted execute runs on (no fallback).")),
        provider: req(str()),
        priceCredits: req(
          int(
            "Credits reserved now and charged by the quoted execute; on a `per_token` route the most it can cost (what the vendor does not bill returns).",
            {
              minimum: 1,
            },
          ),
        ),
        expiresAt: req(str("When the reservation ends unused (QUOTE_EXPIRED after it).", { format: "date-time" })),
        balanceAfterCredits: req(int("Spendable balance once the price is reserved.", { minimum: 0 })),
        blockingRequirements: req(
          strings(
            "What would still prevent the quoted execute if it ran now; empty: a quote a spend policy has no room for is refused (403 SPEND_LIMIT_EXCEEDED, 409 PRICE_ABOVE_MAX), since an open quote's reservation counts against the key's (and agent's) budgets until it is executed or expires.",
          ),
        ),
        nextActions: req(strings("What to do about each blocking requirement: the policy's limit, what is left and when it resets.")),
        decision: req({ ...ref("RouteDecision"), description: "How the route was chosen (no attempts yet)." }),
      },
      { examples: [ex.quote] },
    ),
  };
}
