// components.schemas of routing: recommend, intent routing, execute and quote. The requests are the
// routes' own (routes/requests/); the answers are declared here with zod.

import { z } from "zod";
import { ROUTE_MODES } from "../json-schema";
import { jsonSchemaOf } from "../from-zod";
import { routeTaskBody } from "../../routes/requests/route-task";
import { recommendBody } from "../../routes/requests/capability-input";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";

/** The bodies of recommend and of intent routing. */
export function routingSchemas(): Partial<Record<SchemaName, JsonObject>> {
  return {
    RecommendRequest: jsonSchemaOf(recommendBody),
    RouteTaskRequest: jsonSchemaOf(routeTaskBody),
  };
}

const described = <T extends z.ZodType>(schema: T, description: string): T => schema.meta({ description });
const routeMode = () => z.enum(ROUTE_MODES as [string, ...string[]]);
const strings = (description?: string) => (description ? described(z.array(z.string()), description) : z.array(z.string()));
const credits = () => z.number().min(0);
const alwaysTrue = () => described(z.literal(true), "Always true.");

/** The example of RouteTaskResponse. */
const ROUTE_TASK_EXAMPLE = {
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
};

/** The answers of recommend, intent routing, execute and quote. */
export function routingAnswers(ex: Examples) {
  const WorkflowRecommendation = z
    .strictObject({
      workflowType: z.string(),
      summary: z.string(),
      managedAfterAcquisition: z.boolean().optional(),
      acquisitionCapabilityKey: z.string().optional(),
      acquisitionRouteKey: z.string().optional(),
      acquisitionProvider: z.string().optional(),
      acquisitionPriceCredits: credits().optional(),
      executeRouteKey: z.string().optional(),
      executeProvider: z.string().optional(),
      executePriceCredits: credits().optional(),
      estimatedFirstExecutionTotalCredits: credits().optional(),
      recurringExecutionCredits: credits().optional(),
      blockingRequirements: strings(),
      nextActions: strings(),
      reasons: strings(),
    })
    .meta({ description: "A suggested sequence of calls, e.g. acquire a resource and then execute.", examples: [ex.workflow] });

  const RecommendationCandidate = z
    .strictObject({
      provider: z.string(),
      routeKey: z.string(),
      routeMode: routeMode(),
      canExecuteNow: z.boolean(),
      score: z.number(),
      priceCredits: credits(),
      trackingSupported: z.boolean().optional(),
      supportedFeatures: strings(),
      settlementRail: z.string().optional(),
      blockingRequirements: strings(),
      nextActions: strings(),
      reasons: strings(),
      unavailableReasonCode: z
        .string()
        .optional()
        .meta({
          description:
            "Extension of this service, set when `canExecuteNow` is false: one machine code for the first blocking requirement: `gated`, `planned`, `breaker_open`, `missing_feature`, `resource_unsupported`, `redirect_only`, `byo_credentials_required`, `over_max_price` (above the body's `maxPriceCredits`), `spend_limit_exceeded` (a spend policy of the calling key or of its agent), `vendor_quota_exhausted` (the vendor plan's quota, or the caller's share of it, is spent this window) or `credits_required`.",
          examples: ["credits_required"],
        }),
    })
    .meta({ description: "One scored route.", examples: [ex.candidate] });

  const RecommendationResponse = z
    .strictObject({
      success: alwaysTrue(),
      productKey: described(z.string(), "`<domainKey>.<capabilityId>`.").optional(),
      preferenceSource: described(
        z.enum(["request", "agent", "default"]),
        "Where the applied preferences came from: `request` (this body), `agent` (the ones this Agent-Name last sent) or `default`.",
      ).optional(),
      optimizationPreferences: strings("Preferences actually applied, in priority order (cost, reliability, speed, quality).").optional(),
      recommendedProvider: z.string(),
      recommendedRouteKey: z.string(),
      recommendedRouteMode: routeMode(),
      canExecuteNow: described(z.boolean(), "Whether the recommended route can be executed at once."),
      bestExecutableProvider: z.string().optional(),
      bestExecutableRouteKey: z.string().optional(),
      bestExecutableRouteMode: routeMode().optional(),
      bestWorkflowRecommendation: WorkflowRecommendation.optional(),
      blockingRequirements: strings("What prevents execution now; empty when nothing blocks."),
      nextActions: strings(),
      candidates: z.array(RecommendationCandidate),
      candidatesOmitted: z.int().min(0).optional().meta({
        description:
          "Sent when the request gave `limit`: how many candidates, ranked after those in `candidates`, were left out of this answer.",
      }),
      workflowRecommendations: z.array(WorkflowRecommendation),
      recommendationId: z.string().meta({
        description:
          "Extension of this service: the id this answer is kept under; an execute naming it runs exactly this ranking, candidates in order, at these prices.",
        examples: ["rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f"],
      }),
      recommendationExpiresAt: z.string().meta({
        description: "Extension of this service: until when `recommendationId` can be used (10 minutes after the answer by default).",
        format: "date-time",
      }),
    })
    .meta({
      description: "The route the service would take for a request, with the reasoning. Recommend never performs the paid operation.",
      examples: [ex.recommendation],
    });

  const RouteTaskMatch = z
    .strictObject({
      capabilityKey: z.string(),
      domainKey: z.string(),
      capabilityId: z.string(),
      label: z.string(),
      status: z.enum(["live", "recommend_only"]),
      score: described(z.number().min(0).max(1), "0-1, comparable across tasks; at or above 0.5 the capability does the task."),
      why: described(z.string(), "The task's words (as stems) that matched, each with the capability's fields that hold it."),
      startingPriceCredits: described(z.number().nullable(), "Price of the cheapest live route, in credits."),
      contractPath: described(z.string().nullable(), "Server-relative path of the capability's contract."),
      recommendPath: described(z.string().nullable(), "Server-relative path of the capability's recommend call."),
      canExecuteNow: described(
        z.boolean(),
        "Top match only, when the request sent an API key: whether its recommended route can run now for that key.",
      ).optional(),
    })
    .meta({ description: "One capability that may do the task." });

  const TaskConstraints = z
    .strictObject({
      optimizationPreferences: described(
        z.array(z.enum(["cost", "reliability", "speed", "quality"])),
        'Goals in the order the task names them ("cheapest" -> cost).',
      ),
      maxPriceCredits: described(
        z.int().min(0),
        'The most the task will pay for one run, in credits (1000 credits = 1 USD): "under 20 credits" -> 20, "less than 5 cents" -> 50.',
      ).optional(),
      provider: described(z.string(), 'Provider key the task pins ("via Postmark" -> postmark).').optional(),
      fields: described(
        z.object({}).catchall(z.string()),
        "Execute fields of the top match that the words fill (an address for `to`, a ticker for `symbol`, a time zone).",
      ),
    })
    .meta({ description: "What the task says about how to run it." });

  const RouteTaskResponse = z
    .strictObject({
      task: described(z.string(), "The task as read (trimmed)."),
      matches: described(
        z.array(RouteTaskMatch),
        "Best first (score, then capability key). When `abstained`, the nearest ones, each below the threshold.",
      ),
      abstained: described(z.boolean(), "True when nothing in the catalog does the task: no match scores at the threshold (0.5)."),
      constraints: TaskConstraints,
      catalogVersion: described(z.string(), "Catalog version the answer was computed from."),
    })
    .meta({
      description: "The capabilities that do the task, best first; whether nothing does; what the words say about how to run it.",
      examples: [ROUTE_TASK_EXAMPLE],
    });

  const attempt = z
    .strictObject({
      routeKey: z.string(),
      provider: z.string(),
      outcome: described(z.string(), "`ok`, or what failed: `timeout`, `http_5xx`, `http_4xx`, `payment`, `network`, `invalid_response`."),
      latencyMs: described(z.int().min(0), "Duration of the provider call, payment handshake included."),
      errorCode: described(
        z.string(),
        "The failed attempt's error code: PROVIDER_ERROR, PROVIDER_TIMEOUT, PROVIDER_REJECTED_INPUT or PAYMENT_FAILED.",
      ).optional(),
    })
    .meta({ description: "One provider attempt." });

  const notTried = z
    .strictObject({
      routeKey: z.string(),
      provider: z.string(),
      reason: described(
        z.enum([
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
        ]),
        "Why: a `routeKey`/`provider` pin chose another route; `allowFallback` is false; its price is above `maxPriceCredits`; its breaker is open; " +
          "it lacks a feature the body asks for; the router blocked it otherwise; the catalog gates it; it is not live yet; this deployment cannot run it; " +
          "it cannot take this input (model, resource, a value it cannot send); the wallet could not cover it and a cheaper route ran; its vendor quota (or the caller's share) is spent this window; fallback stopped before it.",
      ),
      detail: described(z.string(), "The reason in words."),
    })
    .meta({ description: "A route of the capability that was not tried." });

  const RouteDecision = z
    .strictObject({
      servedRouteKey: described(z.string(), "The route that served the call (empty on a quote: nothing ran yet)."),
      attempts: described(z.array(attempt), "Every provider attempt in order, the serving one last."),
      notTried: described(z.array(notTried), "Every other route of the capability, with why."),
    })
    .meta({
      description:
        "Extension of this service: the explained routing of an execution. A replay under the same Idempotency-Key carries the decision of the first answer; " +
        "the usage item of the attempt that ended the execution carries it too.",
      examples: [ex.routeDecision],
    });

  const GenericExecutionResponse = z
    .strictObject({
      success: alwaysTrue(),
      status: z
        .string()
        .optional()
        .meta({
          description: "Result status: `sent` (email send), `created` (inbox buy), `quoted` (broadcast quote) or `succeeded`.",
          examples: ["sent"],
        }),
      provider: described(z.string(), "Provider of the route that served the call (after any fallback).").optional(),
      routeKey: described(z.string(), "Route that served the call (after any fallback).").optional(),
      creditsCharged: described(
        credits(),
        "Credits charged for this execution: the price of the route that served it, or on a `per_token` route the tokens the vendor reported (`usage`) at the model's prices, rounded up, never more than was held.",
      ).optional(),
      providerMessageId: described(
        z.string(),
        "The provider's id for what it did (email id, inbox id, quote id), when it gives one.",
      ).optional(),
      data: described(z.looseObject({}), "Capability-specific result.").optional(),
      usage: z
        .strictObject({
          inputTokens: described(z.int().min(0), "Input (prompt) tokens."),
          outputTokens: described(z.int().min(0), "Output (completion) tokens."),
        })
        .optional()
        .meta({ description: "Extension of this service: the tokens the vendor reported for the call (model routes)." }),
      decision: RouteDecision.meta({
        description: "Extension of this service: how the route was chosen (also the `Agentic-Route-Decision` header).",
      }),
    })
    .meta({ description: "Result of a paid execution.", examples: [ex.execution] });

  const QuoteResponse = z
    .strictObject({
      success: alwaysTrue(),
      quoteId: described(z.string(), "Send it as `quoteId` in the execute body."),
      routeKey: described(z.string(), "The route the quoted execute runs on (no fallback)."),
      provider: z.string(),
      priceCredits: described(
        z.int().min(1),
        "Credits reserved now and charged by the quoted execute; on a `per_token` route the most it can cost (what the vendor does not bill returns).",
      ),
      expiresAt: z.string().meta({ description: "When the reservation ends unused (QUOTE_EXPIRED after it).", format: "date-time" }),
      balanceAfterCredits: described(z.int().min(0), "Spendable balance once the price is reserved."),
      blockingRequirements: strings(
        "What would still prevent the quoted execute if it ran now; empty: a quote a spend policy has no room for is refused (403 SPEND_LIMIT_EXCEEDED, 409 PRICE_ABOVE_MAX), since an open quote's reservation counts against the key's (and agent's) budgets until it is executed or expires.",
      ),
      nextActions: strings("What to do about each blocking requirement: the policy's limit, what is left and when it resets."),
      decision: RouteDecision.meta({ description: "How the route was chosen (no attempts yet)." }),
    })
    .meta({
      description:
        "Extension of this service: a reserved price. An execute with the same body plus `quoteId` runs on `routeKey` at `priceCredits` until `expiresAt`.",
      examples: [ex.quote],
    });

  return {
    RecommendationResponse,
    RouteTaskResponse,
    RouteTaskMatch,
    TaskConstraints,
    RecommendationCandidate,
    WorkflowRecommendation,
    GenericExecutionResponse,
    RouteDecision,
    QuoteResponse,
  };
}
