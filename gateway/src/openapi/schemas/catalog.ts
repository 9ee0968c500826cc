// components.schemas of the catalog reads: domains, capabilities, routes and contracts, declared with zod,
// and the capability body (routes/requests/capability-input.ts).

import { z } from "zod";
import { CONTRACT_STATUSES, FIELD_FORMATS, FIELD_TYPES, ROUTE_MODES } from "../json-schema";
import { CAPABILITY_STATUSES, RECORD_STATUSES } from "../../routes/requests/catalog-lists";
import type { JsonObject, SchemaName } from "../document";
import type { Examples } from "../examples";
import { jsonSchemaOf } from "../from-zod";
import { capabilityInput } from "../../routes/requests/capability-input";

type Values = [string, ...string[]];
const oneOf = (values: readonly string[]) => z.enum(values as Values);
const routeMode = () => oneOf(ROUTE_MODES);
const contractStatus = () => oneOf(CONTRACT_STATUSES);
const strings = () => z.array(z.string());
const described = <T extends z.ZodType>(schema: T, description: string): T => schema.meta({ description });
const path = (description: string) => described(z.string(), description);
const nullablePath = (description: string) => described(z.string().nullable(), description);

/** The capability body: what execute and quote take (the document's CapabilityInput). */
export function catalogSchemas(): Partial<Record<SchemaName, JsonObject>> {
  return {
    CapabilityInput: jsonSchemaOf(capabilityInput),
  };
}

/** The answers of the catalog reads. */
export function catalogAnswers(ex: Examples) {
  const DomainCatalogEntry = z
    .strictObject({
      domainKey: z.string().meta({ description: "Stable domain key.", examples: ["email", "search", "geo"] }),
      label: path("Human label."),
      description: z.string(),
      status: oneOf(RECORD_STATUSES),
      capabilitiesPath: path("Server-relative path of the capabilities list of the domain."),
      routesPath: path("Server-relative path of the route list of the domain."),
      routeEndpoint: nullablePath("Server-relative path of a domain-level routing endpoint; null when the domain has none."),
      supportsIntentRouting: z.boolean(),
      liveCapabilityCount: z.int().min(0),
      totalCapabilityCount: z.int().min(0),
      startingPriceCredits: described(
        z.int().min(0),
        "Lowest starting price of a live capability of the domain, in credits (1000 credits = 1 USD).",
      ).optional(),
    })
    .meta({ description: "A domain: the top-level problem area (never a vendor).", examples: [ex.domain] });

  const CapabilityCatalogEntry = z
    .strictObject({
      capabilityKey: z.string().meta({ description: "Dotted key `<domainKey>.<capabilityId>`.", examples: ["email.send"] }),
      capabilityId: z.string().meta({ description: "Id inside the domain.", examples: ["send", "people-search"] }),
      domainKey: z.string(),
      label: z.string(),
      description: z.string(),
      status: described(oneOf(CAPABILITY_STATUSES), "`recommend_only`: recommendable, execution gated."),
      supportedProviders: described(strings(), "Provider keys of every route of the capability."),
      enabledProviders: described(strings(), "Provider keys whose routes are enabled in this deployment."),
      supportedFeatures: strings(),
      availableRouteModes: z.array(routeMode()),
      startingPriceCredits: described(z.number().min(0), "Lowest starting price among the routes, in credits.").optional(),
      recommendEndpoint: path("Server-relative path of the recommend call.").optional(),
      executeEndpoint: path("Server-relative path of the execute call.").optional(),
      routesEndpoint: nullablePath("Server-relative path of the capability's route list; null when it has no routes."),
      docsUrl: z.string().meta({ format: "uri" }).optional(),
      contractEndpoint: path("Server-relative path of the capability contract.").optional(),
      contractStatus: contractStatus(),
      gateReason: path("When the capability is not live: why it is gated and how an operator may enable it.").optional(),
    })
    .meta({ description: "A capability inside a domain. The product key is `<domainKey>.<capabilityId>`.", examples: [ex.capability] });

  const model = z
    .strictObject({
      model: z.string().meta({ description: "Model id to send as `model`.", examples: ["gpt-4o-mini"] }),
      inputCreditsPerMillionTokens: described(z.number().min(0), "Credits per 1M input (prompt) tokens."),
      outputCreditsPerMillionTokens: described(z.number().min(0), "Credits per 1M output (completion) tokens."),
      maxOutputTokens: described(z.int().min(1), "The largest `max_tokens` the model accepts."),
      maxReasoningTokens: described(
        z.int().min(1),
        "Output tokens a reasoning model may bill beyond `max_tokens` (its chain of thought).",
      ).optional(),
    })
    .meta({ description: "A model the route serves, at this service's per-token prices." });

  const health = z
    .strictObject({
      successRate: described(z.number().min(0).max(1).nullable(), "Share of successful calls among the recent ones; null without any."),
      p50LatencyMs: described(z.number().min(0).nullable(), "Median latency of the recent successful calls, in ms; null without any."),
      p95LatencyMs: described(
        z.number().min(0).nullable(),
        "95th percentile latency of the recent successful calls, in ms; null without any.",
      ),
      breakerState: described(
        z.enum(["closed", "open", "half_open"]),
        "`open` after consecutive failures: the route is not picked until a cool-down has passed (`half_open`: the next call is a trial).",
      ),
      lastFailureAt: z
        .string()
        .nullable()
        .meta({ format: "date-time", description: "When the latest failure happened; null when none is known." }),
      observations: described(z.int().min(0), "Recent calls the figures rest on."),
    })
    .meta({
      description:
        "Extension of this service (a capability's route list only): what the router learned of the route from recent executions; every router replica reports the same. Absent while the router cannot be reached; at most a few seconds old.",
    });

  const RouteCatalogEntry = z
    .strictObject({
      routeKey: z.string().meta({ description: "Opaque route identifier.", examples: ["email.send.resend", "search.answer.exa.mpp"] }),
      domainKey: z.string(),
      capabilityKey: z.string(),
      capabilityId: z.string(),
      providerKey: z.string(),
      providerLabel: z.string(),
      networkKey: z.string().meta({
        description:
          "Network the route settles over: `direct`, `mpp`, or a brand-specific network (for example `agentcash` for the x402 rail).",
        examples: ["direct", "mpp", "agentcash"],
      }),
      routeMode: routeMode(),
      managedByAgenticApi: described(z.boolean(), "True when the service itself manages the route."),
      settlementRail: z
        .string()
        .optional()
        .meta({ description: "Settlement protocol, e.g. `api_key`, `x402`, `mpp`.", examples: ["api_key", "x402", "mpp"] }),
      supportedFeatures: strings(),
      summary: z.string(),
      startingCostCredits: described(z.number().min(0), "Starting price of one execution on this route, in credits."),
      status: oneOf(RECORD_STATUSES),
      billing: described(
        z.enum(["per_call", "per_unit", "per_token"]),
        "Extension of this service: how one call is charged. `per_call`: `startingCostCredits`. `per_unit`: `startingCostCredits` per unit the vendor bills, counted in the request (see `billedPer`; e.g. per recipient of an email). `per_token` (the route runs on the service's own vendor key): " +
          "the most the request can cost at its model's prices is held (its input at one token per UTF-8 byte, plus `max_tokens`, 1024 when not given), " +
          "then the tokens the vendor reports are charged, rounded up to whole credits and never more than the hold; the rest is returned. " +
          "`startingCostCredits` is then a reference call of about 1k input and 1k output tokens.",
      ),
      billedPer: z
        .strictObject({
          unit: z.string().meta({ description: "The unit, e.g. `recipient`.", examples: ["recipient"] }),
          fields: strings(),
        })
        .optional()
        .meta({
          description:
            "Extension of this service (`per_unit` routes only): what the vendor bills per, and the execute fields that count the units (a string counts 1, an array each item).",
        }),
      models: described(
        z.array(model),
        "Extension of this service (model routes only): the models the route serves. A request naming a `model` is routed only to routes listing it; a model no route lists is refused (400 INVALID_INPUT).",
      ).optional(),
      health: health.optional(),
    })
    .meta({ description: "One provider path for a capability. Provider-specific choices exist only here.", examples: [ex.routes[0]] });

  const CapabilityFieldContract = z
    .strictObject({
      name: z.string(),
      type: oneOf(FIELD_TYPES),
      required: z.boolean(),
      conditionallyRequired: z.boolean().optional(),
      enumValues: described(strings(), "Allowed values.").optional(),
      maxLength: described(
        z.int().min(0),
        "Strings: characters; arrays: items; free-form objects: characters of the value as compact JSON.",
      ).optional(),
      itemMaxLength: described(z.int().min(0), "Extension of this service: arrays of strings, the longest item in characters.").optional(),
      min: z.number().optional(),
      max: z.number().optional(),
      itemsType: path("Type of the items when `type` is `array`.").optional(),
      format: described(
        oneOf(FIELD_FORMATS),
        "Extension of this service (not in the base spec): format a string value must have. `iana-timezone` is an IANA time zone name such as `Europe/Berlin`.",
      ).optional(),
      get fields() {
        return described(z.array(CapabilityFieldContract), "Nested fields of an object (or of the objects of an array).").optional();
      },
      notes: strings().optional(),
    })
    .meta({ description: "One request field of a capability call." });

  const CapabilityOperationContract = z
    .strictObject({
      status: contractStatus(),
      dtoName: z.string().optional(),
      requiredFields: strings(),
      optionalFields: strings(),
      conditionallyRequiredFields: described(strings(), "Fields required only in some combinations; see `oneOfRequired`."),
      oneOfRequired: described(
        z.array(z.array(z.string()).min(1)),
        'Extension of this service (not in the base spec): groups of field names of which at least one field of each group is required, e.g. `[["html","text"]]`.',
      ).optional(),
      fields: z.array(CapabilityFieldContract),
      requestExample: described(z.looseObject({}), "Example request body.").optional(),
      responseExample: described(z.looseObject({}), "Example response body.").optional(),
      notes: strings(),
    })
    .meta({ description: "Contract of one call (recommend or execute) of a capability." });

  const CapabilityContract = z
    .strictObject({
      domainKey: z.string(),
      capabilityKey: z.string(),
      capabilityId: z.string(),
      docsUrl: z.string().meta({ format: "uri" }).optional(),
      contractStatus: contractStatus(),
      recommend: CapabilityOperationContract.meta({ description: "Contract of the recommend call." }).optional(),
      execute: CapabilityOperationContract.meta({ description: "Contract of the execute call." }).optional(),
      notes: strings(),
    })
    .meta({ description: "Exact request fields of a capability's recommend and execute calls.", examples: [ex.contract] });

  return {
    DomainCatalogEntry,
    CapabilityCatalogEntry,
    RouteCatalogEntry,
    CapabilityContract,
    CapabilityOperationContract,
    CapabilityFieldContract,
  };
}
