// components.schemas of the catalog reads: domains, capabilities, routes and contracts.

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
  contractStatus,
  CAPABILITY_STATUSES,
  FIELD_FORMATS,
  FIELD_TYPES,
  RECORD_STATUSES,
} from "../json-schema";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";
import { jsonSchemaOf } from "../from-zod";
import { capabilityInput } from "../../routes/requests/capability-input";

export function catalogSchemas(ex: Examples): Partial<Record<SchemaName, JsonObject>> {
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

    CapabilityInput: jsonSchemaOf(capabilityInput),
  };
}
