// OpenAPI 3.1 description of the Agentic API REST interface: the hosted capability-routing service's
// interface, field for field, so its clients only change the host (new fields are additions). Owns:
// every path, parameter, schema and error response the gateway documents at /openapi.json (example
// payloads live in examples.ts).

import { buildExamples, EXAMPLE_EXECUTION_ID, EXAMPLE_TRACE_ID, type Examples } from "./examples";
import { INVALID_KEY_HINT, KEY_REQUIRED_HINT } from "../middleware/auth";
import { EXECUTION_ID_PATTERN } from "../errors";
import { INVALID_EXECUTION_ID } from "../routes/executions";
import { CAPABILITY_KEY_PATTERN, CURSOR_PATTERN, USAGE_KINDS } from "../routes/wallet";
import { catalogListParameters, CURSOR_EXPIRED_CASE, PAGE_HEADERS } from "./catalog-lists";
import { CANDIDATES_OMITTED_SCHEMA, recommendLimitParameters } from "./recommend-limit";

/** A JSON Schema or OpenAPI object, kept loose on purpose: the document is plain JSON. */
export type JsonObject = { [key: string]: unknown };

/** Options of {@link buildOpenApiDocument}. */
export interface BuildOpenApiOptions {
  /** Base path of the REST interface, e.g. `/api/agentic-api` (config.ts validates it): the server URL; paths are relative to it. */
  basePath: string;
  /** Include non-production helpers (`POST /dev/init`). Must be false in production. */
  devRoutes: boolean;
}

/** The document returned by {@link buildOpenApiDocument}. */
export interface OpenApiDocument extends JsonObject {
  openapi: "3.1.0";
  info: JsonObject;
  servers: JsonObject[];
  tags: JsonObject[];
  paths: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<SchemaName, JsonObject>;
    responses: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

/** Names of every schema under `components.schemas`. */
export const SCHEMA_NAMES = [
  "DomainCatalogEntry",
  "CapabilityCatalogEntry",
  "RouteCatalogEntry",
  "CapabilityContract",
  "CapabilityOperationContract",
  "CapabilityFieldContract",
  "CapabilityInput",
  "RecommendationResponse",
  "RecommendationCandidate",
  "WorkflowRecommendation",
  "RouteTaskRequest",
  "RouteTaskResponse",
  "RouteTaskMatch",
  "TaskConstraints",
  "GenericExecutionResponse",
  "RouteDecision",
  "QuoteResponse",
  "ExecutionStatusResponse",
  "Execution",
  "ExecutionAttempt",
  "ExecutionResult",
  "WalletResponse",
  "TopUpRequest",
  "TopUpResponse",
  "UsageResponse",
  "UsageItem",
  "UsageSummaryResponse",
  "DevInitRequest",
  "DevInitResponse",
  "ErrorResponse",
] as const;

/** One of {@link SCHEMA_NAMES}. */
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** Schemas whose properties are open (free-form objects); every other object schema is closed. */
export const FREE_FORM_SCHEMAS: readonly SchemaName[] = ["CapabilityInput", "UsageItem"];

const RECORD_STATUSES = ["live", "pending"];
const CAPABILITY_STATUSES = ["live", "recommend_only", "planned", "pending"];
const CONTRACT_STATUSES = ["available", "partial", "unavailable"];
const ROUTE_MODES = ["managed", "byo", "redirect"];
const FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object", "unknown"];
const EXECUTION_STATES = ["claimed", "running", "succeeded", "failed", "outcome_unknown"];
const HOLD_STATES = ["held", "captured", "released", "expired"];
const FIELD_FORMATS = ["email", "uri", "date-time", "date", "iana-timezone", "language-tag", "country-code", "currency-code"];

const BEARER = [{ bearerAuth: [] }];
const PUBLIC: JsonObject[] = [];
const JSON_MEDIA = "application/json";

// ---------------------------------------------------------------------------------------------
// Schema helpers

interface Field {
  schema: JsonObject;
  required: boolean;
}

const ref = (name: SchemaName): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const req = (schema: JsonObject): Field => ({ schema, required: true });
const opt = (schema: JsonObject): Field => ({ schema, required: false });

function withDescription(schema: JsonObject, description?: string): JsonObject {
  return description === undefined ? schema : { ...schema, description };
}

const str = (description?: string, extra: JsonObject = {}): JsonObject => withDescription({ type: "string", ...extra }, description);
const nullableStr = (description?: string): JsonObject => withDescription({ type: ["string", "null"] }, description);
const int = (description?: string, extra: JsonObject = {}): JsonObject => withDescription({ type: "integer", ...extra }, description);
const num = (description?: string, extra: JsonObject = {}): JsonObject => withDescription({ type: "number", ...extra }, description);
const bool = (description?: string, extra: JsonObject = {}): JsonObject => withDescription({ type: "boolean", ...extra }, description);
const oneOfValues = (values: string[], description?: string): JsonObject => withDescription({ type: "string", enum: values }, description);
const arrayOf = (items: JsonObject, description?: string, extra: JsonObject = {}): JsonObject =>
  withDescription({ type: "array", items, ...extra }, description);
const strings = (description?: string): JsonObject => arrayOf({ type: "string" }, description);
const freeForm = (description?: string): JsonObject => withDescription({ type: "object", additionalProperties: true }, description);

/** An object schema; closed (`additionalProperties: false`) unless `open` is set. */
function objectSchema(
  description: string,
  fields: Record<string, Field>,
  options: { open?: boolean; examples?: unknown[] } = {},
): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = field.schema;
    if (field.required) required.push(name);
  }
  return {
    type: "object",
    description,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: options.open === true,
    ...(options.examples ? { examples: options.examples } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// components.schemas

function buildSchemas(ex: Examples): Record<SchemaName, JsonObject> {
  const routeMode = (description?: string) => oneOfValues(ROUTE_MODES, description);
  const contractStatus = (description?: string) => oneOfValues(CONTRACT_STATUSES, description);

  return {
    DomainCatalogEntry: objectSchema(
      "A domain: the top-level problem area (never a vendor).",
      {
        domainKey: req(str("Stable domain key.", { examples: ["email", "search", "geo"] })),
        label: req(str("Human label.")),
        description: req(str()),
        status: req(oneOfValues(RECORD_STATUSES)),
        capabilitiesPath: req(str("Server-relative path of the capabilities list of the domain.")),
        routesPath: req(str("Server-relative path of the route list of the domain.")),
        routeEndpoint: req(nullableStr("Server-relative path of a domain-level routing endpoint; null when the domain has none.")),
        supportsIntentRouting: req(bool()),
        liveCapabilityCount: req(int(undefined, { minimum: 0 })),
        totalCapabilityCount: req(int(undefined, { minimum: 0 })),
        startingPriceCredits: opt(
          int("Lowest starting price of a live capability of the domain, in credits (1000 credits = 1 USD).", { minimum: 0 }),
        ),
      },
      { examples: [ex.domain] },
    ),

    CapabilityCatalogEntry: objectSchema(
      "A capability inside a domain. The product key is `<domainKey>.<capabilityId>`.",
      {
        capabilityKey: req(str("Dotted key `<domainKey>.<capabilityId>`.", { examples: ["email.send"] })),
        capabilityId: req(str("Id inside the domain.", { examples: ["send", "people-search"] })),
        domainKey: req(str()),
        label: req(str()),
        description: req(str()),
        status: req(oneOfValues(CAPABILITY_STATUSES, "`recommend_only`: recommendable, execution gated.")),
        supportedProviders: req(strings("Provider keys of every route of the capability.")),
        enabledProviders: req(strings("Provider keys whose routes are enabled in this deployment.")),
        supportedFeatures: req(strings()),
        availableRouteModes: req(arrayOf(routeMode())),
        startingPriceCredits: opt(num("Lowest starting price among the routes, in credits.", { minimum: 0 })),
        recommendEndpoint: opt(str("Server-relative path of the recommend call.")),
        executeEndpoint: opt(str("Server-relative path of the execute call.")),
        routesEndpoint: req(nullableStr("Server-relative path of the capability's route list; null when it has no routes.")),
        docsUrl: opt(str(undefined, { format: "uri" })),
        contractEndpoint: opt(str("Server-relative path of the capability contract.")),
        contractStatus: req(contractStatus()),
        gateReason: opt(str("When the capability is not live: why it is gated and how an operator may enable it.")),
      },
      { examples: [ex.capability] },
    ),

    RouteCatalogEntry: objectSchema(
      "One provider path for a capability. Provider-specific choices exist only here.",
      {
        routeKey: req(str("Opaque route identifier.", { examples: ["email.send.resend", "search.answer.exa.mpp"] })),
        domainKey: req(str()),
        capabilityKey: req(str()),
        capabilityId: req(str()),
        providerKey: req(str()),
        providerLabel: req(str()),
        networkKey: req(
          str("Network the route settles over: `direct`, `mpp`, or a brand-specific network (for example `agentcash` for the x402 rail).", {
            examples: ["direct", "mpp", "agentcash"],
          }),
        ),
        routeMode: req(routeMode()),
        managedByAgenticApi: req(bool("True when the service itself manages the route.")),
        settlementRail: opt(str("Settlement protocol, e.g. `api_key`, `x402`, `mpp`.", { examples: ["api_key", "x402", "mpp"] })),
        supportedFeatures: req(strings()),
        summary: req(str()),
        startingCostCredits: req(num("Starting price of one execution on this route, in credits.", { minimum: 0 })),
        status: req(oneOfValues(RECORD_STATUSES)),
        billing: req(
          oneOfValues(
            ["per_call", "per_unit", "per_token"],
            "Extension of this service: how one call is charged. `per_call`: `startingCostCredits`. `per_unit`: `startingCostCredits` per unit the vendor bills, counted in the request (see `billedPer`; e.g. per recipient of an email). `per_token` (the route runs on the service's own vendor key): " +
              "the most the request can cost at its model's prices is held (its input at one token per UTF-8 byte, plus `max_tokens`, 1024 when not given), " +
              "then the tokens the vendor reports are charged, rounded up to whole credits and never more than the hold; the rest is returned. " +
              "`startingCostCredits` is then a reference call of about 1k input and 1k output tokens.",
          ),
        ),
        billedPer: opt(
          objectSchema(
            "Extension of this service (`per_unit` routes only): what the vendor bills per, and the execute fields that count the units (a string counts 1, an array each item).",
            {
              unit: req(str("The unit, e.g. `recipient`.", { examples: ["recipient"] })),
              fields: req(strings()),
            },
          ),
        ),
        models: opt(
          arrayOf(
            objectSchema("A model the route serves, at this service's per-token prices.", {
              model: req(str("Model id to send as `model`.", { examples: ["gpt-4o-mini"] })),
              inputCreditsPerMillionTokens: req(num("Credits per 1M input (prompt) tokens.", { minimum: 0 })),
              outputCreditsPerMillionTokens: req(num("Credits per 1M output (completion) tokens.", { minimum: 0 })),
              maxOutputTokens: req(int("The largest `max_tokens` the model accepts.", { minimum: 1 })),
              maxReasoningTokens: opt(
                int("Output tokens a reasoning model may bill beyond `max_tokens` (its chain of thought).", { minimum: 1 }),
              ),
            }),
            "Extension of this service (model routes only): the models the route serves. A request naming a `model` is routed only to routes listing it; a model no route lists is refused (400 INVALID_INPUT).",
          ),
        ),
        health: opt(
          objectSchema(
            "Extension of this service (a capability's route list only): what the router learned of the route from recent executions; every router replica reports the same. Absent while the router cannot be reached; at most a few seconds old.",
            {
              successRate: req(
                withDescription(
                  { type: ["number", "null"], minimum: 0, maximum: 1 },
                  "Share of successful calls among the recent ones; null without any.",
                ),
              ),
              p50LatencyMs: req(
                withDescription(
                  { type: ["number", "null"], minimum: 0 },
                  "Median latency of the recent successful calls, in ms; null without any.",
                ),
              ),
              p95LatencyMs: req(
                withDescription(
                  { type: ["number", "null"], minimum: 0 },
                  "95th percentile latency of the recent successful calls, in ms; null without any.",
                ),
              ),
              breakerState: req(
                oneOfValues(
                  ["closed", "open", "half_open"],
                  "`open` after consecutive failures: the route is not picked until a cool-down has passed (`half_open`: the next call is a trial).",
                ),
              ),
              lastFailureAt: req(
                withDescription(
                  { type: ["string", "null"], format: "date-time" },
                  "When the latest failure happened; null when none is known.",
                ),
              ),
              observations: req(int("Recent calls the figures rest on.", { minimum: 0 })),
            },
          ),
        ),
      },
      { examples: [ex.routes[0]] },
    ),

    CapabilityContract: objectSchema(
      "Exact request fields of a capability's recommend and execute calls.",
      {
        domainKey: req(str()),
        capabilityKey: req(str()),
        capabilityId: req(str()),
        docsUrl: opt(str(undefined, { format: "uri" })),
        contractStatus: req(contractStatus()),
        recommend: opt({ ...ref("CapabilityOperationContract"), description: "Contract of the recommend call." }),
        execute: opt({ ...ref("CapabilityOperationContract"), description: "Contract of the execute call." }),
        notes: req(strings()),
      },
      { examples: [ex.contract] },
    ),

    CapabilityOperationContract: objectSchema("Contract of one call (recommend or execute) of a capability.", {
      status: req(contractStatus()),
      dtoName: opt(str()),
      requiredFields: req(strings()),
      optionalFields: req(strings()),
      conditionallyRequiredFields: req(strings("Fields required only in some combinations; see `oneOfRequired`.")),
      oneOfRequired: opt(
        arrayOf(
          arrayOf({ type: "string" }, undefined, { minItems: 1 }),
          'Extension of this service (not in the base spec): groups of field names of which at least one field of each group is required, e.g. `[["html","text"]]`.',
        ),
      ),
      fields: req(arrayOf(ref("CapabilityFieldContract"))),
      requestExample: opt(freeForm("Example request body.")),
      responseExample: opt(freeForm("Example response body.")),
      notes: req(strings()),
    }),

    CapabilityFieldContract: objectSchema("One request field of a capability call.", {
      name: req(str()),
      type: req(oneOfValues(FIELD_TYPES)),
      required: req(bool()),
      conditionallyRequired: opt(bool()),
      enumValues: opt(strings("Allowed values.")),
      maxLength: opt(
        int("Strings: characters; arrays: items; free-form objects: characters of the value as compact JSON.", { minimum: 0 }),
      ),
      itemMaxLength: opt(int("Extension of this service: arrays of strings, the longest item in characters.", { minimum: 0 })),
      min: opt(num()),
      max: opt(num()),
      itemsType: opt(str("Type of the items when `type` is `array`.")),
      format: opt(
        oneOfValues(
          FIELD_FORMATS,
          "Extension of this service (not in the base spec): format a string value must have. `iana-timezone` is an IANA time zone name such as `Europe/Berlin`.",
        ),
      ),
      fields: opt(arrayOf(ref("CapabilityFieldContract"), "Nested fields of an object (or of the objects of an array).")),
      notes: opt(strings()),
    }),

    CapabilityInput: freeForm(
      "Capability-specific request body. Its exact fields are read from the capability contract (`GET .../contract`).",
    ),

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
        candidatesOmitted: opt(CANDIDATES_OMITTED_SCHEMA),
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

    RouteTaskRequest: objectSchema("A task in words, for intent routing.", {
      task: req(
        str('What you want done, in words (1-2000 characters), e.g. "tell ana@example.com the invoice is attached".', {
          minLength: 1,
          maxLength: 2000,
        }),
      ),
      limit: opt(int("Matches to list, 1-20 (default 5).", { minimum: 1, maximum: 20, default: 5 })),
    }),
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

    ExecutionStatusResponse: objectSchema(
      "Where one execution of the caller stands.",
      {
        success: req(bool("Always true.", { const: true })),
        execution: req(ref("Execution")),
      },
      { examples: [ex.executionStatus] },
    ),

    Execution: objectSchema(
      "One execution: what an execute call (or the first call under an Idempotency-Key) started, its attempts and how it ended. " +
        "Kept 24 hours after it was created.",
      {
        executionId: req(str("Id of the execution, as in the `Execution-Id` header.", { pattern: EXECUTION_ID_PATTERN.source })),
        state: req(
          oneOfValues(
            EXECUTION_STATES,
            "What the execution means for the client. " +
              "`claimed`: an Idempotency-Key reserved it and no attempt started yet, so no provider was reached: wait and read again. " +
              "`running`: an attempt holds credits and its provider call may be in flight: wait and read again (see `indeterminate`). " +
              "`succeeded`: it ended with a result (`result`) and was charged exactly `creditsCharged`. " +
              "`failed`: it ended with an error (`result`); nothing was charged. " +
              "`outcome_unknown`: it was abandoned mid-call (the service lost its provider call while in flight): nothing was charged, " +
              "but the provider may have acted, so check the effect (for example the sent message) before trying again with a new Idempotency-Key. " +
              "`succeeded`, `failed` and `outcome_unknown` are final.",
          ),
        ),
        indeterminate: req(
          bool(
            "True while `running` past its lease: the provider may have been reached and the outcome is being reconciled. " +
              "It will not be run again, and its hold stays until the outcome is known; it then ends as `succeeded`, `failed` or `outcome_unknown`. " +
              "Read again later (a retry of its key answers 409 EXECUTION_INDETERMINATE with Retry-After).",
          ),
        ),
        capabilityKey: req(str("`<domainKey>.<capabilityId>`.", { examples: ["email.send"] })),
        idempotencyKey: opt(str("The Idempotency-Key it runs under, when the request sent one.")),
        createdAt: req(str(undefined, { format: "date-time" })),
        completedAt: opt(str("When it reached a final state.", { format: "date-time" })),
        creditsCharged: req(int("Credits charged for it: the sum of its attempts' `chargedCredits`.", { minimum: 0 })),
        attempts: req(
          arrayOf(ref("ExecutionAttempt"), "Its provider attempts, oldest first (one per route tried; empty while `claimed`)."),
        ),
        result: opt(ref("ExecutionResult")),
      },
      { examples: [ex.executionView] },
    ),

    ExecutionAttempt: objectSchema(
      "One provider attempt of an execution, with the credits held for it.",
      {
        holdId: req(str("Id of the attempt's credit hold.")),
        routeKey: req(str("Route the attempt called.")),
        heldCredits: req(
          int("Credits held for the attempt: the route's price, or on a `per_token` route the most the request could cost.", {
            minimum: 0,
          }),
        ),
        state: req(
          oneOfValues(
            HOLD_STATES,
            "`held`: the credits are reserved while the call is in flight or its outcome awaited. `captured`: charged `chargedCredits`. " +
              "`released`: given back (the attempt failed; nothing charged). `expired`: given back after the hold's lifetime without an outcome (nothing charged).",
          ),
        ),
        chargedCredits: req(int("Credits charged for the attempt (0 unless captured).", { minimum: 0 })),
        createdAt: req(str(undefined, { format: "date-time" })),
        settledAt: opt(str("When the hold left `held`.", { format: "date-time" })),
      },
      { examples: [ex.executionAttempt] },
    ),

    ExecutionResult: objectSchema(
      "The answer the execution ended with, as execute gave it (and as a retry with its Idempotency-Key replays it).",
      {
        httpStatus: req(int("HTTP status of the answer.", { minimum: 100, maximum: 599 })),
        body: req({
          description:
            "The answer's body: a GenericExecutionResponse when `httpStatus` is 200 (with `data` only for an execution under an Idempotency-Key: " +
            "the provider's data of other executions is not kept), else an ErrorResponse.",
          oneOf: [ref("GenericExecutionResponse"), ref("ErrorResponse")],
        }),
      },
      { examples: [ex.executionResult] },
    ),

    WalletResponse: objectSchema(
      "Credit balance of the caller (1000 credits = 1 USD), the credits open holds and quotes reserve, and the spend policies that apply to the calling key " +
        "(and to the agent named in Agent-Name).",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        balanceCredits: req(int(undefined, { minimum: 0 })),
        reservedCredits: req(
          int("Credits held by open holds and quotes: not part of `balanceCredits`, given back when a hold is released or expires.", {
            minimum: 0,
          }),
        ),
        spendPolicies: req(
          arrayOf(
            objectSchema(
              "A spend policy of the key (no `agentName`), of one agent under it, or the key's default agent policy (`otherAgents`: every agent " +
                "without a policy of its own, none named included, counted together), with its current period. Periods are calendar periods in UTC: " +
                "`daily` from 00:00, `weekly` from Monday 00:00, `monthly` from the 1st 00:00; `none` is a one-off allowance that never resets. " +
                "Held credits count while held, a release gives them back, a capture counts what it charged; an execution counts in the period it started in. " +
                "A call over a limit is refused with 403 SPEND_LIMIT_EXCEEDED, one above `maxPriceCredits` with 409 PRICE_ABOVE_MAX; nothing is held.",
              {
                keyId: req(str()),
                agentName: opt(str()),
                otherAgents: opt(withDescription({ type: "boolean", const: true }, "The default agent policy.")),
                reset: req(oneOfValues(["daily", "weekly", "monthly", "none"])),
                budgetCredits: opt(int("Most credits per period.", { minimum: 1 })),
                maxPriceCredits: opt(int("Most credits a single execution may cost.", { minimum: 1 })),
                spentCredits: req(int("Credits counted this period: held plus captured.", { minimum: 0 })),
                heldCredits: req(int("Of spentCredits, what open holds reserve.", { minimum: 0 })),
                remainingCredits: opt(int("What the budget has left this period.", { minimum: 0 })),
                periodStart: req(str(undefined, { format: "date-time" })),
                resetsAt: req(
                  withDescription({ type: ["string", "null"], format: "date-time" }, "When the period resets; null for `none`."),
                ),
                capabilityCaps: req(
                  arrayOf(
                    objectSchema("A cap on one capability, per period.", {
                      capabilityKey: req(str()),
                      maxCredits: opt(int(undefined, { minimum: 1 })),
                      maxCount: opt(int(undefined, { minimum: 1 })),
                      spentCredits: req(int(undefined, { minimum: 0 })),
                      count: req(int("Executions counted this period.", { minimum: 0 })),
                    }),
                  ),
                ),
              },
            ),
          ),
        ),
      },
      { examples: [ex.wallet] },
    ),

    TopUpRequest: {
      ...objectSchema("Credits to buy with an x402 payment: exactly one of the two amounts (1000 credits = 1 USD).", {
        amountCredits: opt(int("Credits to buy.", { minimum: 100, maximum: 1_000_000 })),
        amountUsd: opt(num("USD to pay, at most 3 decimals.", { minimum: 0.1, maximum: 1000 })),
      }),
      minProperties: 1,
      maxProperties: 1,
      examples: [{ amountCredits: 5000 }, { amountUsd: 5 }],
    },

    TopUpResponse: objectSchema(
      "A paid top-up. `creditedCredits` is what this request added: `amountCredits` the first time, 0 when the same payment is presented again (`replayed`).",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        topUpId: req(str("The payment's top-up (one per network, asset, payer and nonce).", { pattern: "^tu_[0-9a-f]{64}$" })),
        amountCredits: req(int("Credits the payment bought.", { minimum: 1 })),
        creditedCredits: req(int(undefined, { minimum: 0 })),
        replayed: req(bool()),
        balanceCredits: req(int("The wallet's balance now.", { minimum: 0 })),
      },
      {
        examples: [TOP_UP_EXAMPLE],
      },
    ),

    UsageResponse: objectSchema(
      "One page of the caller's money history, newest first: executions (kind `charge`) and credit movements (`grant`, `refund`, `adjustment`, `top_up`).",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        items: req(arrayOf(ref("UsageItem"), undefined, { maxItems: 100 })),
        nextCursor: req(
          nullableStr(
            "Send as `cursor` for the next (older) page; null on the last page. Opaque. Pages follow the items' order, not an offset: " +
              "items written while you page never shift them, so following the cursors sees every item once.",
          ),
        ),
      },
      { examples: [ex.usage] },
    ),

    UsageSummaryResponse: objectSchema(
      "The caller's charges over [from, to) summed per UTC day (every day of the range, zero included), capability, route and agent (dearest first), computed by the ledger in one query.",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        from: req(str(undefined, { format: "date-time" })),
        to: req(str(undefined, { format: "date-time" })),
        totalCredits: req(int(undefined, { minimum: 0 })),
        count: req(int("Charges in the range (an execution that charged nothing counts too).", { minimum: 0 })),
        byDay: req(arrayOf(spendGroup("day", str("YYYY-MM-DD, UTC.", { format: "date" })))),
        byCapability: req(arrayOf(spendGroup("capabilityKey", str()))),
        byRoute: req(arrayOf(spendGroup("routeKey", str()))),
        byAgent: req(arrayOf(spendGroup("agentName", str("Absent for charges made without an Agent-Name."), false))),
      },
      { examples: [USAGE_SUMMARY_EXAMPLE] },
    ),

    UsageItem: objectSchema(
      "One usage record. Free-form: the fields below are the ones this service sends; more may appear.",
      {
        id: opt(str()),
        createdAt: opt(str(undefined, { format: "date-time" })),
        productKey: opt(str("`<domainKey>.<capabilityId>`.")),
        capabilityKey: opt(str()),
        routeKey: opt(str()),
        provider: opt(str()),
        networkKey: opt(str()),
        kind: opt(
          oneOfValues(
            [...USAGE_KINDS],
            "`charge`: an execution (the fields above). `grant`, `refund`, `adjustment`: credits an operator added or took back, on the record. `top_up`: credits a payment bought.",
          ),
        ),
        amountCredits: opt(int("Credit movements: the credits added to the balance; negative when credits were taken back.")),
        reference: opt(str("Credit movements: the reference it was recorded under (one movement per reference).")),
        reason: opt(str("Credit movements: why.")),
        status: opt(str("Outcome, e.g. `succeeded`, `failed`, `refunded`.")),
        creditsCharged: opt(num(undefined, { minimum: 0 })),
        durationMs: opt(int("Duration of the provider call in milliseconds.", { minimum: 0 })),
        agentName: opt(str()),
        errorCode: opt(
          str("UPPER_SNAKE code of a failed execution, e.g. `PROVIDER_TIMEOUT`; absent when it succeeded.", {
            examples: ["PROVIDER_TIMEOUT"],
          }),
        ),
        traceId: opt(str("W3C trace id of the request.")),
        inputTokens: opt(
          int("Input tokens the vendor reported (model routes); a `per_token` route's charge comes from them.", { minimum: 0 }),
        ),
        outputTokens: opt(int("Output tokens the vendor reported (model routes).", { minimum: 0 })),
      },
      { open: true, examples: [ex.usageItem] },
    ),

    DevInitRequest: objectSchema(
      "Development wallet to fund. Both fields are optional.",
      {
        userId: opt(
          str("User whose wallet is funded; `dev-user` when omitted.", { minLength: 1, maxLength: 128, pattern: "^[\\w.@:-]+$" }),
        ),
        balanceCredits: opt(
          int("Credits to add to the wallet (not the balance to set); 1000 when omitted.", { minimum: 1, maximum: 100_000_000 }),
        ),
      },
      { examples: [ex.devInitRequest] },
    ),

    DevInitResponse: objectSchema(
      "The funded development wallet and provider context.",
      {
        success: req(bool(undefined, { const: true })),
        userId: req(str()),
        balanceCredits: req(int("Balance after this call's credits were added.", { minimum: 0 })),
        credited: req(int("Credits added by this call.", { minimum: 0 })),
        providers: req(strings()),
        enabledProviders: req(strings()),
        products: req(
          arrayOf(
            objectSchema("Starting price of one product.", {
              productKey: req(str()),
              startingPrice: req(num("In credits.", { minimum: 0 })),
            }),
          ),
        ),
      },
      { examples: [ex.devInitResponse] },
    ),

    ErrorResponse: objectSchema(
      "Error body. The spec marks every field optional; this server always sends `success` (false), `error`, `code` and `hint`, " +
        "`executionId` when the error is about an execution, and `traceId` when the request was traced.",
      {
        success: opt(bool("Always false.", { const: false })),
        error: opt(str("Human-readable message.")),
        code: opt(
          str(
            "Machine-readable UPPER_SNAKE code: INVALID_INPUT, INVALID_JSON, INVALID_BODY, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_ENCODING, UNKNOWN_PROVIDER, UNKNOWN_ROUTE, PROVIDER_REJECTED_INPUT, AGENTIC_API_KEY_REQUIRED, INVALID_API_KEY, CREDITS_REQUIRED, DOMAIN_NOT_FOUND, CAPABILITY_NOT_FOUND, CAPABILITY_GATED, IDEMPOTENCY_CONFLICT, IDEMPOTENCY_IN_PROGRESS, SENDER_NOT_OWNED, EXECUTION_INDETERMINATE, EXECUTION_OUTCOME_UNKNOWN, EXECUTION_NOT_FOUND, RESOURCE_NOT_FOUND, PROVIDER_ERROR, PROVIDER_TIMEOUT, ROUTE_UNAVAILABLE, SETTLEMENT_UNCONFIRMED, UNAVAILABLE, EXECUTOR_DRAINING, TIMEOUT.",
            { pattern: "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$" },
          ),
        ),
        hint: opt(str("What to do next.")),
        executionId: opt(
          str(
            "Extension of this service: the execution the error is about (also sent as the `Execution-Id` header); read it at GET /executions/{executionId}.",
            {
              pattern: EXECUTION_ID_PATTERN.source,
            },
          ),
        ),
        traceId: opt(str("Extension of this service: W3C trace id of the request, for support.")),
        requiredCredits: opt(
          int(
            "Extension of this service, 402 CREDITS_REQUIRED only: credits the call needs (the route's price, or the most a per-token request can cost).",
            {
              minimum: 0,
            },
          ),
        ),
        balanceCredits: opt(int("Extension of this service, 402 CREDITS_REQUIRED only: credits available in the wallet.", { minimum: 0 })),
        missingCredits: opt(
          int("Extension of this service, 402 CREDITS_REQUIRED only: how many credits to add (requiredCredits - balanceCredits).", {
            minimum: 0,
          }),
        ),
        nextActions: opt(
          strings(
            "Extension of this service: what to do to get past this refusal (e.g. the senders email.send may use, how to link a social account).",
          ),
        ),
      },
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Errors

interface ErrorCase {
  status: number;
  error: string;
  hint: string;
  /** Set for errors about an execution (body `executionId`, header Execution-Id). */
  executionId?: string;
}

function errorCases(basePath: string): Record<string, ErrorCase> {
  const contract = `GET ${basePath}/domains/email/capabilities/send/contract`;
  return {
    INVALID_JSON: {
      status: 400,
      error: "Unexpected token 'n', \"{not json\" is not valid JSON",
      hint: "Send a valid JSON object as the request body.",
    },
    INVALID_BODY: {
      status: 400,
      error: "incorrect header check",
      hint: "Send the body as plain (or correctly encoded) UTF-8 JSON with Content-Type: application/json.",
    },
    PAYLOAD_TOO_LARGE: { status: 413, error: "request entity too large", hint: "Send a smaller body." },
    UNSUPPORTED_MEDIA_TYPE: { status: 415, error: "the request body must be JSON", hint: "Send Content-Type: application/json" },
    UNSUPPORTED_ENCODING: { status: 415, error: 'unsupported charset "ISO-8859-1"', hint: "Send the body as UTF-8 JSON." },
    INVALID_INPUT: { status: 400, error: "Field 'to' is required.", hint: `Read ${contract} for the exact fields.` },
    CURSOR_EXPIRED: CURSOR_EXPIRED_CASE,
    AGENTIC_API_KEY_REQUIRED: { status: 401, error: "an API key is required", hint: KEY_REQUIRED_HINT },
    INVALID_API_KEY: { status: 401, error: "the API key is invalid or revoked", hint: INVALID_KEY_HINT },
    CREDITS_REQUIRED: {
      status: 402,
      error: "Insufficient credits: route email.send.resend costs 10 credits, balance is 3.",
      hint: `Fund the wallet; check GET ${basePath}/wallet.`,
    },
    DOMAIN_NOT_FOUND: { status: 404, error: "Domain 'mail' not found.", hint: `List domains with GET ${basePath}/domains.` },
    CAPABILITY_NOT_FOUND: {
      status: 404,
      error: "Capability 'email.sent' not found.",
      hint: `List capabilities with GET ${basePath}/domains/email/capabilities.`,
    },
    CAPABILITY_GATED: {
      status: 409,
      error: "Execution of text.analyze is gated on every route.",
      hint: "Call recommend and follow nextActions; canExecuteNow is false for this capability.",
    },
    UNKNOWN_PROVIDER: {
      status: 400,
      error: 'provider: email.send has no route of provider "mailgun"',
      hint: "Set 'provider' to one of: resend, sendgrid, postmark, agentmail; or omit it to let the router choose.",
    },
    UNKNOWN_ROUTE: {
      status: 400,
      error: 'routeKey: "email.send.mailgun" is not a route of email.send',
      hint: "Set 'routeKey' to one of: email.send.resend, email.send.sendgrid, email.send.postmark; or omit it to let the router choose.",
    },
    PROVIDER_REJECTED_INPUT: {
      status: 400,
      error: "email.send.resend refused the request: HTTP 422 from resend, validation_error. Nothing was charged.",
      hint: `Check the input against ${contract} and the provider's limits, then retry.`,
    },
    IDEMPOTENCY_CONFLICT: {
      status: 409,
      error: "Idempotency-Key 'order-1234' was already used with a different request.",
      hint: "Use a new Idempotency-Key for a different request body or capability.",
    },
    IDEMPOTENCY_IN_PROGRESS: {
      status: 409,
      error: `A request with Idempotency-Key 'order-1234' is still running as execution ${EXAMPLE_EXECUTION_ID} (its lease runs until 2025-06-01T12:01:30.000Z).`,
      hint: `Retry with the same Idempotency-Key to receive its result, or read GET /executions/${EXAMPLE_EXECUTION_ID}.`,
      executionId: EXAMPLE_EXECUTION_ID,
    },
    EXECUTION_INDETERMINATE: {
      status: 409,
      error: `Execution ${EXAMPLE_EXECUTION_ID} (Idempotency-Key 'order-1234') may have reached its provider and its outcome is not known yet. It will not be run again.`,
      hint: `Retry later with the same Idempotency-Key, or read GET /executions/${EXAMPLE_EXECUTION_ID}: it ends as succeeded (charged), failed or outcome_unknown (not charged).`,
      executionId: EXAMPLE_EXECUTION_ID,
    },
    EXECUTION_OUTCOME_UNKNOWN: {
      status: 502,
      error: `Execution ${EXAMPLE_EXECUTION_ID} was interrupted while its provider call was in flight; whether the provider acted is unknown. Nothing was charged.`,
      hint:
        "Check the effect (for example the sent message) before trying again; to try again, send a new Idempotency-Key. " +
        "This answer is the stored result of this Idempotency-Key and is replayed for it: to try again, send a new Idempotency-Key.",
      executionId: EXAMPLE_EXECUTION_ID,
    },
    RESOURCE_NOT_FOUND: {
      status: 404,
      error: 'inboxId: this account has no email.inbox "research-agent@agentmail.to". Nothing was charged.',
      hint: "Set 'inboxId' to the id of a email.inbox this account created, as its execute answered it.",
    },
    EXECUTION_NOT_FOUND: {
      status: 404,
      error: "No execution exe_9ZyXwVuTsRqPoNmLkJiHgF.",
      hint: "Use the executionId an execute answered with; executions are kept 24 hours.",
    },
    PROVIDER_ERROR: {
      status: 502,
      error: "email.send failed on email.send.resend (HTTP 503 from resend). Nothing was charged.",
      hint: "Retry, or send allowFallback: true to let another route take the call.",
    },
    PROVIDER_TIMEOUT: {
      status: 504,
      error: "email.send failed on email.send.resend (no answer from resend within 15000 ms). Nothing was charged.",
      hint: "The provider may still have completed the operation although it did not confirm it; check before retrying.",
    },
    ROUTE_UNAVAILABLE: {
      status: 503,
      error: "No route of email.send can run right now (email.send.resend: ROUTE_UNHEALTHY). Nothing was charged.",
      hint: "Retry shortly; call recommend to see each route's blocking requirements.",
    },
    SETTLEMENT_UNCONFIRMED: {
      status: 503,
      error:
        "Route email.send.resend performed the operation, but its charge of 10 credits could not be recorded. You will most likely not be charged for it.",
      hint: "Check GET /usage before retrying: the operation may already have taken effect.",
    },
    UNAVAILABLE: { status: 503, error: "The ledger is unavailable.", hint: "The ledger is unavailable; retry after 5 s." },
    EXECUTOR_DRAINING: {
      status: 503,
      error: "This executor is shutting down and did not start the execution. Nothing was held or charged.",
      hint: "Send the same request again after the Retry-After seconds (with the same Idempotency-Key, if you sent one).",
    },
    PAYMENT_REQUIRED: {
      status: 402,
      error: "Buying 5000 credits costs 5.000 USD, paid with x402.",
      hint: "Pay the requirements of PAYMENT-REQUIRED and send the same request with PAYMENT-SIGNATURE (any x402 v2 client does this).",
    },
    PAYMENT_INVALID: {
      status: 402,
      error:
        "The payment was refused (invalid_exact_evm_payload_authorization_value_mismatch: value 100000 differs from amount 250000); nothing was credited.",
      hint: "Sign a new payment for the requirements of PAYMENT-REQUIRED.",
    },
    PAYMENT_FAILED: {
      status: 402,
      error: "The payment could not be settled (insufficient_funds); nothing was credited.",
      hint: "Sign a new payment (a new nonce) for the requirements of PAYMENT-REQUIRED.",
    },
    PAYMENT_PENDING: {
      status: 409,
      error: "The payment's settlement is not confirmed yet; nothing is credited until it is.",
      hint: "Send the same PAYMENT-SIGNATURE again after Retry-After: a payment is credited once, never twice.",
    },
    PAYMENT_ALREADY_USED: {
      status: 409,
      error: "This payment was already used for another account.",
      hint: "Sign a new payment for the requirements of PAYMENT-REQUIRED.",
    },
    PAYMENT_UNVERIFIED: {
      status: 503,
      error: "The payment could not be verified now; nothing was written.",
      hint: "Send the same PAYMENT-SIGNATURE again after Retry-After.",
    },
    TOP_UP_UNAVAILABLE: { status: 503, error: "This API takes no payments for credits.", hint: "Ask the operator for credits." },
    TIMEOUT: {
      status: 504,
      error: "A backend service did not answer in time.",
      hint: "A backend service did not answer in time; retry shortly.",
    },
    RATE_LIMITED: {
      status: 429,
      error: "This API key sent more than 20 requests a second (bursts of up to 40).",
      hint: "Retry after the Retry-After seconds, and pace requests by the RateLimit header (r = requests left, t = seconds until they refill).",
    },
    CONCURRENCY_LIMITED: {
      status: 429,
      error: "This API key already has 32 requests in flight, its limit.",
      hint: "Wait for one of your requests to finish before sending another (or retry after the Retry-After seconds).",
    },
    UNCHARGED_FAILURES_LIMITED: {
      status: 429,
      error:
        "Today 50 calls of this account ended without a charge after the provider may have done paid work (timeouts, answers too large to read); 50 a day are allowed.",
      hint: "New calls are refused until 2026-11-29T00:00:00.000Z (the next UTC day). Ask for work a provider can finish in time (smaller pages, lower limits, a shorter wait) so calls succeed.",
    },
    TOO_MANY_OPEN_QUOTES: {
      status: 429,
      error: "Key key_3fQx has 20 open quotes, the most one key may have; each reserves its credits until it is executed or expires.",
      hint: "Execute or let expire an open quote (POST .../execute with its quoteId) before asking for another, or execute without a quote.",
    },
    VENDOR_QUOTA_EXHAUSTED: {
      status: 429,
      error:
        "You have used your share of the vendor quota of finance.fx.rate.openexchangerates until 2026-12-01T00:00:00.000Z (the vendor's plan is shared by every user). Nothing was charged.",
      hint: "Retry after the Retry-After seconds, or execute another route of the capability (call recommend to compare them; allowFallback: true lets the router pick one).",
    },
    OVERLOADED: {
      status: 503,
      error: "The gateway is overloaded and did not start this request.",
      hint: "Retry after the Retry-After seconds, with backoff; nothing was done or charged.",
    },
    SPEND_LIMIT_EXCEEDED: {
      status: 403,
      error:
        "This call (10 credits) exceeds the budget of key key_3fQx (agent alpha): 100 credits, 0 credits left; it resets at 2026-11-28T00:00:00.000Z.",
      hint:
        "The budget of key key_3fQx (agent alpha) has 0 of 100 credits left until 2026-11-28T00:00:00.000Z, when it resets: wait until then, " +
        "choose a cheaper route, or ask the key's owner to raise the limit (npm run keys -- policy).",
    },
    PRICE_ABOVE_MAX: {
      status: 409,
      error:
        "No route of email.send that can run this input costs at most maxPriceCredits 8: the cheapest, email.send.resend, costs 10 credits. Nothing was charged.",
      hint: "PRICE_ABOVE_MAX: raise maxPriceCredits to at least 10, or leave it out.",
    },
    QUOTE_NOT_FOUND: {
      status: 404,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY not found.",
      hint: "Send the quoteId a quote answered for this account.",
    },
    QUOTE_EXPIRED: {
      status: 410,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY has expired; its credits are no longer reserved. Nothing was charged.",
      hint: "Ask for a new quote (POST .../quote) and execute with its quoteId.",
    },
    QUOTE_ALREADY_USED: {
      status: 409,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY was already used by an execution. Nothing was charged.",
      hint: "A quote runs once: ask for a new quote, or send an Idempotency-Key to retry an execution safely.",
    },
    QUOTE_MISMATCH: {
      status: 409,
      error: "Quote quo_8Jd3Kq7PzW2mX5vN9cR1tY was made for another body or capability. Nothing was charged.",
      hint: "Send exactly the body you quoted, plus quoteId; or ask for a new quote for this body.",
    },
    RECOMMENDATION_NOT_FOUND: {
      status: 404,
      error: "Recommendation rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f not found.",
      hint: "Send the recommendationId a recommend answered for this account, or leave it out for a fresh ranking.",
    },
    RECOMMENDATION_EXPIRED: {
      status: 410,
      error: "Recommendation rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f has expired.",
      hint: "Call recommend again and execute with its recommendationId, or leave it out for a fresh ranking.",
    },
    AGENT_NAMES_EXHAUSTED: {
      status: 409,
      error: "This account already has optimization preferences remembered for 1000 agent names, the most it may.",
      hint: "Use one of your existing agent names, or send the request without agentName (nothing is remembered then); a name unused for 30 days is forgotten and frees its place.",
    },
    RECOMMENDATION_STALE: {
      status: 409,
      error: "Recommendation rec_2b7c9d1e-5f3a-4c8b-9e6d-0a1b2c3d4e5f was computed from an older catalog.",
      hint: "Call recommend again: routes or prices changed since.",
    },
  };
}

/** A response with an ErrorResponse body and one example per code. */
function errorResponse(description: string, codes: string[], cases: Record<string, ErrorCase>, headers?: JsonObject): JsonObject {
  const exampleMap: JsonObject = {};
  for (const code of codes) {
    const c = cases[code];
    if (!c) throw new Error(`no error case for ${code}`);
    const executionId = c.executionId ? { executionId: c.executionId } : {};
    exampleMap[code] = { value: { success: false, error: c.error, code, hint: c.hint, ...executionId, traceId: EXAMPLE_TRACE_ID } };
  }
  return {
    description: `${description} Codes: ${codes.join(", ")}.`,
    ...(headers ? { headers } : {}),
    content: { [JSON_MEDIA]: { schema: ref("ErrorResponse"), examples: exampleMap } },
  };
}

/** TIMEOUT of an execute: the execution is named, with where to read its outcome (the gateway's executionTimedOut words). */
const EXECUTE_TIMEOUT_CASE: ErrorCase = {
  status: 504,
  error: `Execution ${EXAMPLE_EXECUTION_ID} did not answer within the gateway's deadline; it may still finish and be charged.`,
  hint:
    `Read GET /executions/${EXAMPLE_EXECUTION_ID} for its outcome before trying again: a retry with the same Idempotency-Key ` +
    "answers that outcome, a retry without one could run it twice.",
  executionId: EXAMPLE_EXECUTION_ID,
};

/** The Execution-Id header of an error about an execution. */
const EXECUTION_ID_HEADER: JsonObject = {
  description: "Sent with the errors that carry `executionId` (the same id): the execution to read at GET /executions/{executionId}.",
  schema: { type: "string", pattern: EXECUTION_ID_PATTERN.source },
};

/** The short form of an answer's `decision`. */
const ROUTE_DECISION_HEADER: JsonObject = {
  description:
    "Extension of this service: the answer's `decision` in short, `served=<routeKey>; tried=<attempts>; skipped=<routes not tried>` (served is empty on a quote).",
  schema: { type: "string", examples: ["served=email.send.sendgrid; tried=2; skipped=1"] },
};

/** Retry-After of a 503: a request shed because the gateway is overloaded, or a backend that is down. */
const RETRY_AFTER_503: JsonObject = {
  description:
    "Seconds to wait before retrying. With OVERLOADED: 1 to 3, spread so that shed clients do not return together. With UNAVAILABLE " +
    "(a backend is down or did not answer; the hint names it, and the routes that do not need it keep answering): 5, unless the backend said otherwise.",
  schema: { type: "integer", minimum: 1 },
};

/** One group of GET /usage/summary: its key (required unless `keyRequired` is false), credits and count. */
function spendGroup(key: string, keySchema: JsonObject, keyRequired = true): JsonObject {
  return objectSchema(`The charges of one ${key}.`, {
    [key]: keyRequired ? req(keySchema) : opt(keySchema),
    credits: req(int(undefined, { minimum: 0 })),
    count: req(int(undefined, { minimum: 0 })),
  });
}

const USAGE_SUMMARY_EXAMPLE = {
  success: true,
  userId: "user_7d2f1c",
  from: "2026-11-27T00:00:00.000Z",
  to: "2026-11-29T00:00:00.000Z",
  totalCredits: 30,
  count: 3,
  byDay: [
    { day: "2026-11-27", credits: 0, count: 0 },
    { day: "2026-11-28", credits: 30, count: 3 },
  ],
  byCapability: [{ capabilityKey: "email.send", credits: 30, count: 3 }],
  byRoute: [{ routeKey: "email.send.resend", credits: 30, count: 3 }],
  byAgent: [
    { agentName: "alpha_agent", credits: 20, count: 2 },
    { credits: 10, count: 1 },
  ],
};

const TOP_UP_EXAMPLE = {
  success: true,
  userId: "user_7d2f1c",
  topUpId: `tu_${"3f".repeat(32)}`,
  amountCredits: 5000,
  creditedCredits: 5000,
  replayed: false,
  balanceCredits: 9990,
};

/** x402 v2 over HTTP: the challenge of a 402 and the receipt of a settled payment (base64 JSON each). */
const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";
const PAYMENT_REQUIRED_SCHEMA: JsonObject = {
  description:
    "x402 v2 challenge, base64 of JSON `{x402Version: 2, error, resource: {url, description, mimeType}, accepts: [PaymentRequirements]}`: one offer of scheme `exact` " +
    "(EIP-3009 transferWithAuthorization), in USDC (`asset`, 6 decimals, 1000 atomic units = 1 credit) on `network` (CAIP-2), to the platform's `payTo`, " +
    "for `amount` atomic units, signed to stay valid at most `maxTimeoutSeconds`. Absent when the API takes no payments.",
  schema: { type: "string", contentEncoding: "base64" },
};
const PAYMENT_RESPONSE_SCHEMA: JsonObject = {
  description:
    "x402 v2 settlement receipt, base64 of the facilitator's JSON `{success, transaction, network, payer, amount}` (also on a refused settlement, with `errorReason`).",
  schema: { type: "string", contentEncoding: "base64" },
};

/** The headers of a 429 (draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit, Structured Field lists). */
const RATE_LIMIT_HEADERS: JsonObject = {
  "Retry-After": {
    description: "Seconds to wait before retrying: the end of the rate's window (RATE_LIMITED), or 1 (CONCURRENCY_LIMITED).",
    schema: { type: "integer", minimum: 1 },
  },
  "RateLimit-Policy": {
    description:
      'The key\'s quota policies: `"rate";q=20;w=1, "burst";q=20;w=10, "in-flight";q=32;qu="concurrent-requests"` (requests per second; extra requests per 10 s beyond that; requests in flight). ' +
      'Without a valid key: `"unauthenticated";q=60;w=60`.',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'What is left: `"rate";r=0;t=1, "in-flight";r=32` (r = requests left, t = seconds until the window resets).',
    schema: { type: "string" },
  },
};

function buildErrorResponses(basePath: string): Record<string, JsonObject> {
  const cases = errorCases(basePath);
  return {
    BadRequest: errorResponse(
      "The body is not JSON or cannot be read, a field breaks the contract, or a header that names one thing (Agent-Name) is repeated.",
      ["INVALID_INPUT", "INVALID_JSON", "INVALID_BODY"],
      cases,
    ),
    InvalidQuery: errorResponse("A query parameter is unknown, repeated or out of range (named in `error`).", ["INVALID_INPUT"], cases),
    Unauthorized: errorResponse(
      "Authorization header missing, or the API key is invalid.",
      ["AGENTIC_API_KEY_REQUIRED", "INVALID_API_KEY"],
      cases,
    ),
    CreditsRequired: errorResponse(
      "The wallet balance is below the route price. Nothing was charged. When the API takes x402 payments, PAYMENT-REQUIRED offers the call's full price " +
        "(not the shortfall, so the offer does not depend on a balance that may change); paying it and sending the same request with PAYMENT-SIGNATURE adds " +
        "those credits to the wallet, then runs the call as usual. A refused payment (PAYMENT_INVALID, PAYMENT_FAILED) is a 402 too, with the reason.",
      ["CREDITS_REQUIRED", "PAYMENT_INVALID", "PAYMENT_FAILED"],
      cases,
      { [PAYMENT_REQUIRED_HEADER]: PAYMENT_REQUIRED_SCHEMA },
    ),
    TopUpPaymentRequired: errorResponse(
      "No PAYMENT-SIGNATURE yet (PAYMENT_REQUIRED), or the payment was refused and nothing was credited: it does not match the requirements, " +
        "its signature or validity is wrong, it pays too little, or the facilitator refused to settle it (`error` names the reason). PAYMENT-REQUIRED offers the requirements again.",
      ["PAYMENT_REQUIRED", "PAYMENT_INVALID", "PAYMENT_FAILED"],
      cases,
      { [PAYMENT_REQUIRED_HEADER]: PAYMENT_REQUIRED_SCHEMA, [PAYMENT_RESPONSE_HEADER]: PAYMENT_RESPONSE_SCHEMA },
    ),
    TopUpConflict: errorResponse(
      "PAYMENT_PENDING: the payment was sent for settlement and its outcome is not known yet; nothing is credited until it is, and the same PAYMENT-SIGNATURE sent again " +
        "after Retry-After answers the outcome (credited once). PAYMENT_ALREADY_USED: the payment was credited to another account.",
      ["PAYMENT_PENDING", "PAYMENT_ALREADY_USED"],
      cases,
      {
        "Retry-After": {
          description: "Sent with PAYMENT_PENDING: seconds before presenting the same payment again.",
          schema: { type: "integer", minimum: 1 },
        },
      },
    ),
    TopUpUnavailable: errorResponse(
      "The API takes no payments (TOP_UP_UNAVAILABLE), the facilitator could not verify the payment now (PAYMENT_UNVERIFIED, with Retry-After; nothing was written), or a backing service is unavailable.",
      ["TOP_UP_UNAVAILABLE", "PAYMENT_UNVERIFIED", "UNAVAILABLE", "OVERLOADED"],
      cases,
      { "Retry-After": { description: "Seconds before trying again.", schema: { type: "integer", minimum: 1 } } },
    ),
    DomainNotFound: errorResponse("The domain does not exist.", ["DOMAIN_NOT_FOUND"], cases),
    CapabilityNotFound: errorResponse("The domain or the capability does not exist.", ["DOMAIN_NOT_FOUND", "CAPABILITY_NOT_FOUND"], cases),
    ExecuteBadRequest: errorResponse(
      "The body is not JSON, cannot be read or breaks the contract's execute block (the field is named in `hint`), a header is repeated or malformed, a pin names no route of the capability, or the provider refused the input. Nothing was charged.",
      ["INVALID_INPUT", "INVALID_JSON", "INVALID_BODY", "UNKNOWN_PROVIDER", "UNKNOWN_ROUTE", "PROVIDER_REJECTED_INPUT"],
      cases,
    ),
    SpendLimitExceeded: errorResponse(
      "A spend policy of the API key, or of the agent named in Agent-Name (or recommend's `agentName`), refused the call: its budget or a capability cap for the period " +
        "is spent (`error` names the limit and what remains, `hint` when it resets). Nothing was held or charged and no provider was called; paying more would not help.",
      ["SPEND_LIMIT_EXCEEDED"],
      cases,
    ),
    ExecuteConflict: errorResponse(
      "Execution is gated for this capability or route (it may still be recommendable), the Idempotency-Key was used with a different request, " +
        "or the key's execution has not ended: IDEMPOTENCY_IN_PROGRESS while it runs, EXECUTION_INDETERMINATE once it runs past its lease " +
        "(the provider may have been reached and the outcome is being reconciled; it is never run again and its hold stays until it ends). " +
        "PRICE_ABOVE_MAX: no route that can run costs at most `maxPriceCredits` (the hint names the cheapest price), or the route costs more than the " +
        "API key's spend policy allows for one execution. QUOTE_ALREADY_USED: the quote already ran; " +
        "QUOTE_MISMATCH: the body is not the one quoted. RECOMMENDATION_STALE: the catalog changed since the recommendation. " +
        "Nothing was charged for this request. The last two carry `executionId` and Retry-After: retry with the same Idempotency-Key after it, " +
        "or read GET /executions/{executionId}.",
      [
        "CAPABILITY_GATED",
        "IDEMPOTENCY_CONFLICT",
        "IDEMPOTENCY_IN_PROGRESS",
        "EXECUTION_INDETERMINATE",
        "PRICE_ABOVE_MAX",
        "QUOTE_ALREADY_USED",
        "QUOTE_MISMATCH",
        "RECOMMENDATION_STALE",
      ],
      cases,
      {
        "Retry-After": {
          description:
            "Seconds to wait before retrying with the same Idempotency-Key or reading the execution: sent with IDEMPOTENCY_IN_PROGRESS (a few seconds) " +
            "and EXECUTION_INDETERMINATE (longer: its outcome comes from reconciliation, not from a prompt answer).",
          schema: { type: "integer", minimum: 0 },
        },
        "Execution-Id": EXECUTION_ID_HEADER,
      },
    ),
    ExecuteUnavailable: errorResponse(
      "A backing service is unavailable (UNAVAILABLE, with Retry-After; the hint names it), no route can run right now, a performed operation's charge could not be recorded (see the message), every executor asked was shutting down and none started it (EXECUTOR_DRAINING, with Retry-After: nothing held or charged), or the gateway is overloaded and did not start the request (OVERLOADED, with Retry-After).",
      ["UNAVAILABLE", "ROUTE_UNAVAILABLE", "SETTLEMENT_UNCONFIRMED", "EXECUTOR_DRAINING", "OVERLOADED"],
      cases,
      { "Retry-After": RETRY_AFTER_503 },
    ),
    ProviderError: errorResponse(
      "PROVIDER_ERROR: the provider failed and no fallback route was left; the hold was released. " +
        "EXECUTION_OUTCOME_UNKNOWN (replayed for its Idempotency-Key, with `executionId`): the execution was abandoned mid-call; " +
        "nothing was charged, but the provider may have acted, so check the effect before trying again with a new Idempotency-Key.",
      ["PROVIDER_ERROR", "EXECUTION_OUTCOME_UNKNOWN"],
      cases,
      { "Execution-Id": EXECUTION_ID_HEADER },
    ),
    ExecuteTimeout: errorResponse(
      "PROVIDER_TIMEOUT: the provider did not answer in time; the hold was released. TIMEOUT: the executor did not answer within the " +
        "gateway's deadline (which exceeds the executor's longest execution, so this means it was unreachable or stalled), or the " +
        "connection to it dropped after the call reached it; the execution may still end charged. Its id is in `executionId` and the Execution-Id header: read GET /executions/{executionId} for its outcome " +
        "before trying again (a retry with the same Idempotency-Key answers that outcome; one without a key could run it twice).",
      ["PROVIDER_TIMEOUT", "TIMEOUT"],
      { ...cases, TIMEOUT: EXECUTE_TIMEOUT_CASE },
      { "Execution-Id": EXECUTION_ID_HEADER },
    ),
    ExecuteNotFound: errorResponse(
      "The domain or the capability does not exist, or the body names a resource (an `inboxId`) this account does not own; " +
        "another account's resource answers exactly as one that does not exist; or the `quoteId` or `recommendationId` is not this account's. Nothing was held and no provider was called.",
      ["DOMAIN_NOT_FOUND", "CAPABILITY_NOT_FOUND", "RESOURCE_NOT_FOUND", "QUOTE_NOT_FOUND", "RECOMMENDATION_NOT_FOUND"],
      cases,
    ),
    AgentNamesExhausted: errorResponse(
      "`optimizationPreferences` sent for an agent name this account has none remembered for, when it already has the most it may " +
        "(1000 by default): nothing was remembered. Known names keep working, and a request without `agentName` remembers nothing.",
      ["AGENT_NAMES_EXHAUSTED"],
      cases,
    ),
    CursorExpired: errorResponse(
      "The cursor was given before the catalog changed: a page of the new catalog would skip or repeat items. Start the walk again from the first page.",
      ["CURSOR_EXPIRED"],
      cases,
    ),
    ExecuteGone: errorResponse(
      "The quote (`quoteId`) or the stored recommendation (`recommendationId`) has expired; nothing was charged. Ask for a new one.",
      ["QUOTE_EXPIRED", "RECOMMENDATION_EXPIRED"],
      cases,
    ),
    ExecutionNotFound: errorResponse(
      "The caller has no execution with this id (another user's executions are not found either).",
      ["EXECUTION_NOT_FOUND"],
      cases,
    ),
    InvalidExecutionId: errorResponse("The execution id is malformed.", ["INVALID_INPUT"], {
      INVALID_INPUT: {
        status: 400,
        error: `executionId: ${INVALID_EXECUTION_ID.problem}`,
        hint: INVALID_EXECUTION_ID.hint,
      },
    }),
    Unavailable: errorResponse(
      "A backing service is unavailable (UNAVAILABLE, with Retry-After; the hint names it): retry after it. OVERLOADED: the gateway is saturated and refused the request at once without starting it (Retry-After says when to come back).",
      ["UNAVAILABLE", "OVERLOADED"],
      cases,
      { "Retry-After": RETRY_AFTER_503 },
    ),
    TooManyRequests: errorResponse(
      "The API key is over its request rate (RATE_LIMITED) or already has its most requests in flight (CONCURRENCY_LIMITED); requests without a valid key " +
        "are also limited per client address (RATE_LIMITED). Nothing was done or charged. RateLimit-Policy and RateLimit are sent on every answer to an authenticated request, not only on 429.",
      ["RATE_LIMITED", "CONCURRENCY_LIMITED"],
      cases,
      RATE_LIMIT_HEADERS,
    ),
    ExecuteTooManyRequests: errorResponse(
      "The API key is over its request rate (RATE_LIMITED) or already has its most requests in flight (CONCURRENCY_LIMITED), as on every authenticated operation; or " +
        "VENDOR_QUOTA_EXHAUSTED: the route runs on a vendor plan with a fixed quota every user shares, and the caller's share of it (or the whole quota) is spent " +
        "until the window resets (Retry-After); another route of the capability may still run. Or UNCHARGED_FAILURES_LIMITED: today the account had its " +
        "allowance of calls that made a provider work on the platform's key and ended without a charge (timeouts, answers too large to read, 50 a UTC day by " +
        "default), so calls are refused until the next UTC day (Retry-After, `details.resetsAt`). Nothing was done or charged.",
      ["RATE_LIMITED", "CONCURRENCY_LIMITED", "VENDOR_QUOTA_EXHAUSTED", "UNCHARGED_FAILURES_LIMITED"],
      cases,
      RATE_LIMIT_HEADERS,
    ),
    QuoteTooManyRequests: errorResponse(
      "The API key is over its request rate (RATE_LIMITED) or has its most requests in flight (CONCURRENCY_LIMITED), or already has its most open quotes " +
        "(TOO_MANY_OPEN_QUOTES: 20 per key, each reserving its credits until it is executed or expires). Nothing was reserved or charged.",
      ["RATE_LIMITED", "CONCURRENCY_LIMITED", "TOO_MANY_OPEN_QUOTES"],
      cases,
      RATE_LIMIT_HEADERS,
    ),
    Timeout: errorResponse("A backing service did not answer within the gateway's deadline; retry shortly.", ["TIMEOUT"], cases),
    PayloadTooLarge: errorResponse("The body is larger than the gateway accepts.", ["PAYLOAD_TOO_LARGE"], cases),
    UnsupportedMediaType: errorResponse(
      "The body is not sent as JSON (a Content-Type other than application/json), or not in UTF-8.",
      ["UNSUPPORTED_MEDIA_TYPE", "UNSUPPORTED_ENCODING"],
      cases,
    ),
  };
}

const responseRef = (name: string): JsonObject => ({ $ref: `#/components/responses/${name}` });

// ---------------------------------------------------------------------------------------------
// Operations

const jsonBody = (schema: JsonObject, example?: unknown): JsonObject => ({
  [JSON_MEDIA]: { schema, ...(example === undefined ? {} : { examples: { default: { value: example } } }) },
});

const ok = (description: string, schema: JsonObject, example: unknown): JsonObject => ({
  description,
  content: jsonBody(schema, example),
});

const paramRef = (name: string): JsonObject => ({ $ref: `#/components/parameters/${name}` });

interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  auth: boolean;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  success: JsonObject;
  errors: Record<string, string>;
  /** Catalog answers: the 200 carries an ETag, and If-None-Match with it answers 304. */
  conditional?: boolean;
  /** Catalog lists: limit and cursor, the page headers, 400 for a bad one and 410 for a stale cursor. */
  paged?: boolean;
}

/** The 200 of a catalog answer with its validators, and the 304 that If-None-Match may bring. */
function conditionalResponses(success: JsonObject, headers: JsonObject = {}): JsonObject {
  return {
    "200": {
      ...success,
      headers: {
        ...headers,
        ETag: { description: "Strong validator of the answer; send it back as If-None-Match.", schema: { type: "string" } },
        "Cache-Control": {
          description: "`no-cache`: keep the answer, but revalidate it (the catalog can change at any deploy).",
          schema: { type: "string" },
        },
      },
    },
    "304": {
      description: "Not Modified: If-None-Match named the current ETag. Empty body; use the copy you have.",
      headers: { ETag: { description: "The current ETag.", schema: { type: "string" } } },
    },
  };
}

function operation(spec: OperationSpec): JsonObject {
  const responses: JsonObject = spec.conditional
    ? conditionalResponses(spec.success, spec.paged ? PAGE_HEADERS : {})
    : { "200": spec.success };
  if (spec.paged) {
    responses["400"] = responseRef("InvalidQuery");
    responses["410"] = responseRef("CursorExpired");
  }
  if (spec.auth) {
    responses["401"] = responseRef("Unauthorized");
    responses["429"] = responseRef("TooManyRequests");
  }
  if (spec.requestBody) {
    responses["413"] = responseRef("PayloadTooLarge");
    responses["415"] = responseRef("UnsupportedMediaType");
  }
  for (const [status, name] of Object.entries(spec.errors)) responses[status] = responseRef(name);
  responses["503"] ??= responseRef("Unavailable");
  // Every operation calls a backend under the gateway's deadline (catalog answers on a cache miss).
  responses["504"] ??= responseRef("Timeout");
  const parameters = [
    ...(spec.parameters ?? []),
    ...(spec.paged ? [paramRef("pageLimit"), paramRef("pageCursor")] : []),
    ...(spec.conditional ? [paramRef("IfNoneMatch")] : []),
  ];
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    security: spec.auth ? BEARER : PUBLIC,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: sortByStatus(responses),
  };
}

/** POST /route and POST /domains/{domainKey}/route: keyless like the catalog reads; a key, when sent, is checked (401) and limited (429). */
function routeOperation(
  operationId: string,
  summary: string,
  scope: string,
  parameters: JsonObject[],
  errors: Record<string, string> = {},
): JsonObject {
  const op = operation({
    operationId,
    tag: "Routing",
    summary,
    description:
      `Intent routing over ${scope}: the live and recommend-only capabilities that do a task written in words, best first, each with a score ` +
      "(0-1, comparable across tasks), `why` it matched, its starting price and where to go next (contract, recommend). `abstained` is true when " +
      'nothing in the catalog does the task. `constraints` reads goals ("cheapest"), a price cap ("under 20 credits", "less than 5 cents"), ' +
      'a provider ("via Postmark") and the top match\'s fields the words fill. Free, deterministic, in process. No key needed; with one, the top match ' +
      "says `canExecuteNow` for it. Don't know which capability does your task? Ask here first.",
    auth: true,
    parameters,
    requestBody: {
      required: true,
      content: jsonBody(ref("RouteTaskRequest"), { task: "tell ana@example.com the invoice is attached", limit: 5 }),
    },
    success: ok("The matches.", ref("RouteTaskResponse"), undefined),
    errors: { "400": "BadRequest", ...errors },
  });
  return { ...op, security: [{}, ...BEARER] };
}

function sortByStatus(responses: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

function buildPaths(ex: Examples, devRoutes: boolean): Record<string, Record<string, JsonObject>> {
  const domain = [paramRef("domainKey")];
  const capability = [paramRef("domainKey"), paramRef("capabilityId")];
  const capabilityPath = "/domains/{domainKey}/capabilities/{capabilityId}";

  const paths: Record<string, Record<string, JsonObject>> = {
    "/domains": {
      get: operation({
        operationId: "listDomains",
        tag: "Catalog",
        summary: "List domains",
        description: "Every domain of the catalog with its status, counts and starting price. Start here.",
        auth: false,
        conditional: true,
        paged: true,
        success: ok("The domains.", arrayOf(ref("DomainCatalogEntry")), [ex.domain]),
        errors: {},
      }),
    },
    "/capabilities": {
      get: operation({
        operationId: "searchCapabilities",
        tag: "Catalog",
        summary: "Find capabilities across domains",
        description:
          "Every capability of the catalog, filtered: `q` finds words in labels, descriptions and example tasks (best match first; without `q`, catalog order), " +
          "and status, provider, feature, networkKey and maxPriceCredits narrow it (filters combine). Always paged: follow the `Link` header's " +
          '`rel="next"` URL; `X-Total-Count` counts every match. Any other query parameter, or a repeated one, answers 400 INVALID_INPUT.',
        auth: false,
        conditional: true,
        paged: true,
        parameters: [
          "catalogQuery",
          "capabilityStatusFilter",
          "providerFilter",
          "featureFilter",
          "networkKeyFilter",
          "maxPriceCreditsFilter",
        ].map(paramRef),
        success: ok("A page of the capabilities found.", arrayOf(ref("CapabilityCatalogEntry")), [ex.capability]),
        errors: {},
      }),
    },
    "/routes": {
      get: operation({
        operationId: "searchRoutes",
        tag: "Catalog",
        summary: "Find routes across domains",
        description:
          "Every provider route of the catalog, filtered like GET /capabilities: `q` keeps the routes of the capabilities it finds (best capability first), " +
          "status, provider, feature, networkKey and maxPriceCredits (the route's starting cost) keep the routes that match. Always paged, like GET /capabilities.",
        auth: false,
        conditional: true,
        paged: true,
        parameters: [
          "catalogQuery",
          "routeStatusFilter",
          "providerFilter",
          "featureFilter",
          "networkKeyFilter",
          "maxPriceCreditsFilter",
        ].map(paramRef),
        success: ok("A page of the routes found.", arrayOf(ref("RouteCatalogEntry")), ex.routes),
        errors: {},
      }),
    },
    "/domains/{domainKey}": {
      get: operation({
        operationId: "getDomain",
        tag: "Catalog",
        summary: "Get a domain",
        description: "One domain of the catalog.",
        auth: false,
        conditional: true,
        parameters: domain,
        success: ok("The domain.", ref("DomainCatalogEntry"), ex.domain),
        errors: { "404": "DomainNotFound" },
      }),
    },
    "/domains/{domainKey}/capabilities": {
      get: operation({
        operationId: "listCapabilities",
        tag: "Catalog",
        summary: "List the capabilities of a domain",
        description:
          "Capabilities of the domain. Read `status` to see which are live; `recommend_only` ones can be recommended but not executed.",
        auth: false,
        conditional: true,
        paged: true,
        parameters: domain,
        success: ok("The capabilities.", arrayOf(ref("CapabilityCatalogEntry")), [ex.capability]),
        errors: { "404": "DomainNotFound" },
      }),
    },
    [capabilityPath]: {
      get: operation({
        operationId: "getCapability",
        tag: "Catalog",
        summary: "Get a capability",
        description: "One capability with its status, providers, route modes and endpoints.",
        auth: false,
        conditional: true,
        parameters: capability,
        success: ok("The capability.", ref("CapabilityCatalogEntry"), ex.capability),
        errors: { "404": "CapabilityNotFound" },
      }),
    },
    "/domains/{domainKey}/routes": {
      get: operation({
        operationId: "listDomainRoutes",
        tag: "Catalog",
        summary: "List the routes of a domain",
        description: "Every provider route of every capability of the domain.",
        auth: false,
        conditional: true,
        paged: true,
        parameters: domain,
        success: ok("The routes.", arrayOf(ref("RouteCatalogEntry")), ex.routes),
        errors: { "404": "DomainNotFound" },
      }),
    },
    [`${capabilityPath}/routes`]: {
      get: operation({
        operationId: "listCapabilityRoutes",
        tag: "Catalog",
        summary: "List the routes of a capability",
        description:
          "Provider routes of one capability, with network, settlement rail, mode, price and status, and each route's live `health` (success rate, latency, breaker) from recent executions.",
        auth: false,
        conditional: true,
        paged: true,
        parameters: capability,
        success: ok("The routes.", arrayOf(ref("RouteCatalogEntry")), ex.routes),
        errors: { "404": "CapabilityNotFound" },
      }),
    },
    [`${capabilityPath}/contract`]: {
      get: operation({
        operationId: "getCapabilityContract",
        tag: "Contracts",
        summary: "Get the contract of a capability",
        description: "Exact request fields of the recommend and execute calls. Read it before the first execution.",
        auth: false,
        conditional: true,
        parameters: capability,
        success: ok("The contract.", ref("CapabilityContract"), ex.contract),
        errors: { "404": "CapabilityNotFound" },
      }),
    },
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
          content: jsonBody(ref("CapabilityInput"), ex.recommendRequest),
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
        errors: {
          "400": "ExecuteBadRequest",
          "402": "CreditsRequired",
          "403": "SpendLimitExceeded",
          "404": "ExecuteNotFound",
          "409": "ExecuteConflict",
          "410": "ExecuteGone",
          "429": "ExecuteTooManyRequests",
          "502": "ProviderError",
          "503": "ExecuteUnavailable",
          "504": "ExecuteTimeout",
        },
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
        errors: {
          "400": "ExecuteBadRequest",
          "402": "CreditsRequired",
          "403": "SpendLimitExceeded",
          "404": "ExecuteNotFound",
          "409": "ExecuteConflict",
          "410": "ExecuteGone",
          "429": "QuoteTooManyRequests",
          "503": "ExecuteUnavailable",
        },
      }),
    },
    "/executions/{executionId}": {
      get: operation({
        operationId: "getExecution",
        tag: "Executions",
        summary: "Get an execution",
        description:
          "Where one execution of the caller stands: its state, each provider attempt with the credits held and charged, and the answer it ended with. " +
          "The id is the `Execution-Id` header of an execute answer (or `executionId` of an error about it). For a client: `claimed` and `running` mean wait " +
          "and read again; `indeterminate` means the provider may have been reached and the outcome is being reconciled (it will not be run again, its hold stays); " +
          "`succeeded` was charged `creditsCharged`; `failed` charged nothing; `outcome_unknown` was abandoned mid-call, charged nothing, and the provider may have acted. " +
          "Another user's execution answers 404 like an unknown one. Never cached (`Cache-Control: no-store`).",
        auth: true,
        parameters: [paramRef("executionId")],
        success: {
          ...ok("The execution.", ref("ExecutionStatusResponse"), ex.executionStatus),
          headers: {
            "Cache-Control": { description: "`no-store`: the state changes until the execution ends.", schema: { type: "string" } },
          },
        },
        errors: { "400": "InvalidExecutionId", "404": "ExecutionNotFound" },
      }),
    },
    "/wallet": {
      get: operation({
        operationId: "getWallet",
        tag: "Wallet",
        summary: "Get the wallet balance",
        description:
          "Credit balance of the user the API key belongs to (1000 credits = 1 USD), with the spend policies of the calling key and of the agent named in Agent-Name.",
        auth: true,
        parameters: [paramRef("userId"), paramRef("AgentName")],
        success: ok("The wallet.", ref("WalletResponse"), ex.wallet),
        errors: { "400": "BadRequest" },
      }),
    },
    "/wallet/top-up": {
      post: operation({
        operationId: "topUpWallet",
        tag: "Wallet",
        summary: "Buy credits with an x402 payment",
        description:
          "Adds credits to the caller's wallet for a USDC payment over x402 v2. Without PAYMENT-SIGNATURE the answer is 402 with PAYMENT-REQUIRED " +
          "offering exactly the credits asked for; pay it (any x402 v2 client, e.g. `wrapFetchWithPayment` of `@x402/fetch`) and send the same request " +
          "with PAYMENT-SIGNATURE. The ledger verifies and settles the payment with the facilitator and credits the wallet once per payment: the same " +
          "signature presented again credits nothing and answers the first result (`replayed: true`). The answer carries PAYMENT-RESPONSE.",
        auth: true,
        parameters: [paramRef("PaymentSignature")],
        requestBody: {
          required: true,
          description: "How many credits to buy.",
          content: jsonBody(ref("TopUpRequest"), { amountCredits: 5000 }),
        },
        success: {
          ...ok("The credited top-up and the new balance.", ref("TopUpResponse"), TOP_UP_EXAMPLE),
          headers: { [PAYMENT_RESPONSE_HEADER]: PAYMENT_RESPONSE_SCHEMA },
        },
        errors: { "400": "BadRequest", "402": "TopUpPaymentRequired", "409": "TopUpConflict", "503": "TopUpUnavailable" },
      }),
    },
    "/usage": {
      get: operation({
        operationId: "listUsage",
        tag: "Wallet",
        summary: "List usage, a page at a time",
        description:
          "The money history of the user the API key belongs to, newest first: each execution (kind `charge`, with what it charged) and each credit " +
          "movement (an operator's `grant`, `refund` or `adjustment`, a `top_up`, with the credits it moved and why). At most `limit` items per page; " +
          "`nextCursor` continues after the last one. Filters combine, and may change between pages. Any other query parameter, a repeated one, " +
          "or a bad value answers 400 INVALID_INPUT naming it.",
        auth: true,
        parameters: [
          paramRef("limit"),
          paramRef("cursor"),
          paramRef("from"),
          paramRef("to"),
          paramRef("agentNameFilter"),
          paramRef("capabilityKeyFilter"),
          paramRef("usageKind"),
        ],
        success: ok("The usage items.", ref("UsageResponse"), ex.usage),
        errors: { "400": "InvalidQuery" },
      }),
    },
  };

  paths["/usage/summary"] = {
    get: operation({
      operationId: "summarizeUsage",
      tag: "Wallet",
      summary: "Sum spend per day, capability, route and agent",
      description:
        "The caller's charges over [from, to) summed per UTC day, capability, route and agent, in one request (the ledger sums them; no paging). " +
        "Without `from` and `to`: the last 30 UTC days, today included. At most 366 days. `agentName` and `capabilityKey` narrow it. " +
        "Any other query parameter, a repeated one, or a bad value answers 400 INVALID_INPUT naming it.",
      auth: true,
      parameters: [paramRef("from"), paramRef("to"), paramRef("agentNameFilter"), paramRef("capabilityKeyFilter")],
      success: ok("The sums.", ref("UsageSummaryResponse"), USAGE_SUMMARY_EXAMPLE),
      errors: { "400": "InvalidQuery" },
    }),
  };
  paths["/usage/export"] = {
    get: operation({
      operationId: "exportUsage",
      tag: "Wallet",
      summary: "Export usage as CSV",
      description:
        "Every usage item GET /usage's filters select, newest first, as CSV (a header line, then one line per item), streamed: the gateway reads the " +
        "ledger a page at a time as the client reads, so any number of rows is exported in flat memory. A refused query answers 400 before any row; " +
        "a failure after the first row cuts the answer off (a partial file never ends as a complete one would).",
      auth: true,
      parameters: [paramRef("from"), paramRef("to"), paramRef("agentNameFilter"), paramRef("capabilityKeyFilter"), paramRef("usageKind")],
      success: {
        description: "The rows, as text/csv.",
        content: {
          "text/csv": {
            schema: { type: "string" },
            example:
              "id,createdAt,kind,capabilityKey,routeKey,provider,agentName,status,errorCode,durationMs,creditsCharged,amountCredits,reason,reference,traceId\n",
          },
        },
      },
      errors: { "400": "InvalidQuery" },
    }),
  };

  if (devRoutes) {
    paths["/dev/init"] = {
      post: operation({
        operationId: "devInit",
        tag: "Development",
        summary: "Fund a development wallet",
        description:
          "Non-production helper: adds `balanceCredits` (default 1000) to the wallet of `userId` (default `dev-user`), creating it " +
          "when needed, and describes the providers and products it can use. Each call adds again. " +
          "Not offered in production (the path answers 404 there).",
        auth: false,
        requestBody: {
          required: false,
          description: "Optional: whose wallet, and how many credits to add.",
          content: jsonBody(ref("DevInitRequest"), ex.devInitRequest),
        },
        success: ok("The funded wallet.", ref("DevInitResponse"), ex.devInitResponse),
        errors: { "400": "BadRequest" },
      }),
    };
  }
  return paths;
}

function buildParameters(): Record<string, JsonObject> {
  return {
    domainKey: {
      name: "domainKey",
      in: "path",
      required: true,
      description: "Domain key.",
      schema: { type: "string", minLength: 1 },
      example: "email",
    },
    capabilityId: {
      name: "capabilityId",
      in: "path",
      required: true,
      description:
        "Capability id inside the domain (e.g. `inbox-buy`). The dotted spelling (`inbox.buy`) and the whole capability key " +
        "(`email.inbox.buy`) answer the same resource; the response then names the canonical path in `Content-Location`.",
      schema: { type: "string", minLength: 1 },
      example: "send",
    },
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Makes the execution safe to retry. The first result for a user and key (success or error, once the request passed " +
        "validation) is stored for 24 hours and replayed for a retry with the same body, with no second charge or provider call. " +
        "The same key with a different body answers 409 IDEMPOTENCY_CONFLICT; a retry while the first request still runs waits " +
        "for its result, or answers 409 IDEMPOTENCY_IN_PROGRESS (or EXECUTION_INDETERMINATE once it runs past its lease) with Retry-After " +
        "and the execution's id. An execution abandoned mid-call replays 502 EXECUTION_OUTCOME_UNKNOWN. Bodies rejected with 400 are not stored.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
      example: "order-1234-confirmation",
    },
    PaymentSignature: {
      name: "PAYMENT-SIGNATURE",
      in: "header",
      required: false,
      description:
        "x402 v2 payment, base64 of a JSON PaymentPayload answering a PAYMENT-REQUIRED offer (scheme `exact`: an EIP-3009 authorization signed by the payer). " +
        "The ledger verifies and settles it and credits the wallet once per payment (network, asset, payer, nonce).",
      schema: { type: "string", minLength: 1 },
    },
    AgentName: {
      name: "Agent-Name",
      in: "header",
      required: false,
      description:
        "Name of the calling agent: shown in usage items, and the router applies the optimization preferences this agent last sent to recommend. " +
        "Compared and recorded normalized (Unicode NFKC, case folded, invisible format characters removed): `Alpha` is `alpha`. " +
        "A key issued for one agent acts as that agent whatever is sent (leave it out, or send that name; another is a 400); " +
        "a key requiring agents needs one of its names here (anything else, or none, is a 400).",
      schema: { type: "string", minLength: 1, maxLength: 100 },
      example: "alpha_agent",
    },
    ...catalogListParameters(),
    ...recommendLimitParameters(),
    IfNoneMatch: {
      name: "If-None-Match",
      in: "header",
      required: false,
      description: "ETag of a copy you have; answers 304 with an empty body while it is still current.",
      schema: { type: "string" },
    },
    userId: {
      name: "userId",
      in: "query",
      required: false,
      description: "Reads the wallet of another user. Honoured only outside production; ignored in production.",
      schema: { type: "string", minLength: 1 },
    },
    executionId: {
      name: "executionId",
      in: "path",
      required: true,
      description: "Id of the execution: the `Execution-Id` header of an execute answer, or `executionId` of an error about it.",
      schema: { type: "string", pattern: EXECUTION_ID_PATTERN.source },
      example: EXAMPLE_EXECUTION_ID,
    },
    limit: {
      name: "limit",
      in: "query",
      required: false,
      description: "Maximum number of items. Out of range answers 400 INVALID_INPUT.",
      schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
    },
    cursor: {
      name: "cursor",
      in: "query",
      required: false,
      description:
        "`nextCursor` of the previous page, as it was given; absent for the newest page. Any other value answers 400 INVALID_INPUT.",
      schema: { type: "string", pattern: CURSOR_PATTERN.source },
    },
    from: {
      name: "from",
      in: "query",
      required: false,
      description: "Only items created at or after this time (RFC 3339, with its offset; a `+` offset is sent as `%2B`).",
      schema: { type: "string", format: "date-time" },
      example: "2026-11-01T00:00:00Z",
    },
    to: {
      name: "to",
      in: "query",
      required: false,
      description: "Only items created before this time (RFC 3339, with its offset); after `from`.",
      schema: { type: "string", format: "date-time" },
      example: "2026-12-01T00:00:00Z",
    },
    agentNameFilter: {
      name: "agentName",
      in: "query",
      required: false,
      description: "Only executions made with this `Agent-Name`.",
      schema: { type: "string", minLength: 1, maxLength: 100 },
      example: "alpha_agent",
    },
    capabilityKeyFilter: {
      name: "capabilityKey",
      in: "query",
      required: false,
      description: "Only executions of this capability.",
      schema: { type: "string", pattern: CAPABILITY_KEY_PATTERN.source },
      example: "email.send",
    },
    usageKind: {
      name: "kind",
      in: "query",
      required: false,
      description: "Only items of this kind.",
      schema: { type: "string", enum: [...USAGE_KINDS] },
    },
  };
}

/**
 * Builds the OpenAPI 3.1.0 document of the Agentic API. Paths are relative to the single server,
 * whose URL ends in `basePath`. `POST /dev/init` and its tag appear only when `devRoutes` is true.
 */
export function buildOpenApiDocument(opts: BuildOpenApiOptions): OpenApiDocument {
  const { basePath } = opts;
  const ex = buildExamples(basePath);
  const tags: JsonObject[] = [
    { name: "Catalog", description: "Domains, capabilities and routes. No API key needed." },
    { name: "Contracts", description: "Exact request fields of each capability. No API key needed." },
    { name: "Routing", description: "Recommend a route (free), then execute the capability (paid)." },
    { name: "Executions", description: "Where an execution of the caller stands: for agents awaiting an outcome and for support." },
    { name: "Wallet", description: "Credit balance and usage of the caller." },
  ];
  if (opts.devRoutes) tags.push({ name: "Development", description: "Non-production helpers." });

  return {
    openapi: "3.1.0",
    info: {
      title: "Agentic API",
      version: "1.0.0",
      summary: "A capability router for AI agents.",
      description:
        "Capability-first gateway for paid third-party APIs. Ask for a capability (`email.send`, `search.answer`), never a vendor: " +
        "read the catalog and the capability contract, ask for a recommendation, execute, then check the execution, the wallet and usage. " +
        "Billing is in credits (1000 credits = 1 USD). Recommend, execute, executions, wallet and usage need `Authorization: Bearer aak_...`. " +
        "Each API key has a request rate and a cap of requests in flight, advertised on every authenticated answer in the RateLimit-Policy and RateLimit headers; " +
        "over either, 429 with Retry-After. A saturated gateway refuses new requests at once with 503 OVERLOADED and Retry-After.",
    },
    servers: [{ url: basePath, description: "This deployment." }],
    externalDocs: { description: "Agent instructions generated from the live catalog (llms.txt beside it).", url: `${basePath}/SKILL.md` },
    tags,
    paths: buildPaths(ex, opts.devRoutes),
    components: {
      schemas: buildSchemas(ex),
      responses: buildErrorResponses(basePath),
      parameters: buildParameters(),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "aak_ API key",
          description: "API key from the hosted install flow, sent as `Authorization: Bearer aak_...`.",
        },
      },
    },
  };
}
