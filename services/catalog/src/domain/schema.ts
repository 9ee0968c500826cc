// Shape of the catalog data files (zod). Only what cannot be derived is written in the data:
// keys of routes, capability ids, paths, counts, prices of domains, provider labels on routes
// and settlement rails are all derived in derive.ts.
import { z } from "zod";
import { BillDriverSchema } from "./bill-drivers";

/** Route networks. direct = our own vendor key; agentcash = the x402 brand network; mpp = Machine Payments Protocol. */
export const NETWORK_KEYS = ["direct", "agentcash", "mpp"] as const;
export type NetworkKey = (typeof NETWORK_KEYS)[number];

/** Settlement rail of each network (the protocol the wallet layer pays with). */
export const SETTLEMENT_RAIL: Readonly<Record<NetworkKey, string>> = {
  direct: "api_key",
  agentcash: "x402",
  mpp: "mpp",
};

/** managed = we run provider and settlement; byo = caller brings a resource or identity; redirect = not brokered yet. */
export const ROUTE_MODES = ["managed", "byo", "redirect"] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

export const CAPABILITY_STATUSES = ["live", "recommend_only", "planned", "pending"] as const;
export const ROUTE_STATUSES = ["live", "pending"] as const;

/** Status of a described operation; an operation that is not described is simply left out. */
export const OPERATION_STATUSES = ["available", "partial"] as const;

export const FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object", "unknown"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Format hints for string fields (for arrays, the hint applies to each item). */
export const FIELD_FORMATS = [
  "email",
  "uri",
  "date-time",
  "date",
  "iana-timezone",
  "language-tag",
  "country-code",
  "currency-code",
] as const;

/** One lowercase word: domain keys, provider keys and each dotted part of a capability key. */
export const KEY_PART = /^[a-z][a-z0-9]*$/;
const CAPABILITY_KEY = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)*$/;
const FEATURE = /^[a-z][a-z0-9_]*$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DTO_NAME = /^[A-Z][A-Za-z0-9]*Dto$/;

/** A required non-empty string with a message that says what is missing. */
function text(what: string) {
  return z
    .string({ error: (i) => (i.input === undefined ? `${what} is required` : `${what} must be a string`) })
    .trim()
    .min(1, { error: `${what} must not be empty` });
}

function pattern(re: RegExp, what: string) {
  return text(what).regex(re, { error: `${what} must match ${re}` });
}

const fieldName = pattern(FIELD_NAME, "field name");
const notes = z.array(text("note"));

/** A field of an operation contract as written in the data (JSON-Schema style: parents list required children). */
export interface RawField {
  name: string;
  type: FieldType;
  format?: (typeof FIELD_FORMATS)[number] | undefined;
  enumValues?: string[] | undefined;
  /** Strings: characters; arrays: items; objects: characters of the value as compact JSON. */
  maxLength?: number | undefined;
  /** Arrays of strings: the longest item, in characters. */
  itemMaxLength?: number | undefined;
  min?: number | undefined;
  max?: number | undefined;
  itemsType?: FieldType | undefined;
  /** Nested fields of an object, or of each item of an array of objects. */
  fields?: RawField[] | undefined;
  /** Names of nested fields that are required. */
  requiredFields?: string[] | undefined;
  notes?: string[] | undefined;
}

export const FieldSchema: z.ZodType<RawField> = z.lazy(() =>
  z.strictObject({
    name: fieldName,
    type: z.enum(FIELD_TYPES),
    format: z.enum(FIELD_FORMATS).optional(),
    enumValues: z.array(text("enum value")).min(1).optional(),
    maxLength: z.number().int().positive().optional(),
    itemMaxLength: z.number().int().positive().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    itemsType: z.enum(FIELD_TYPES).optional(),
    fields: z.array(FieldSchema).min(1).optional(),
    requiredFields: z.array(fieldName).optional(),
    notes: notes.optional(),
  }),
);

const example = z.record(z.string(), z.unknown());

/** The responseExample of an execute contract: a full GenericExecutionResponse. */
export const ExecutionResponseExampleSchema = z.strictObject({
  success: z.literal(true),
  status: text("status"),
  provider: text("provider"),
  routeKey: text("routeKey"),
  creditsCharged: z.number().nonnegative(),
  providerMessageId: text("providerMessageId").optional(),
  data: example,
});

const operationBase = {
  status: z.enum(OPERATION_STATUSES),
  dtoName: pattern(DTO_NAME, "dtoName").optional(),
  requiredFields: z.array(fieldName).default([]),
  /** Groups of which at least one field must be present, e.g. [[html, text]]. */
  oneOfRequired: z.array(z.array(fieldName).min(2, { error: "a oneOfRequired group needs at least two fields" })).default([]),
  /** Fields required only in some situations (each explains when in its notes); oneOfRequired members are added. */
  conditionallyRequiredFields: z.array(fieldName).default([]),
  /** Capability-specific fields; the common fields of _contract-defaults.yaml are added by the loader. */
  fields: z.array(FieldSchema).default([]),
  requestExample: example.optional(),
  notes: notes.default([]),
};

export const RecommendOperationSchema = z.strictObject({ ...operationBase, responseExample: example.optional() });
export const ExecuteOperationSchema = z.strictObject({
  ...operationBase,
  responseExample: ExecutionResponseExampleSchema.optional(),
});
export type RawRecommendOperation = z.infer<typeof RecommendOperationSchema>;
export type RawExecuteOperation = z.infer<typeof ExecuteOperationSchema>;
export type RawOperation = RawRecommendOperation | RawExecuteOperation;

export const ContractSchema = z.strictObject({
  notes: notes.default([]),
  recommend: RecommendOperationSchema.optional(),
  execute: ExecuteOperationSchema.optional(),
});

const probability = (what: string) =>
  z
    .number()
    .min(0, { error: `${what} must be within 0..1` })
    .max(1, { error: `${what} must be within 0..1` });

export const RoutePriorsSchema = z.strictObject({
  successRate: probability("successRate"),
  latencyMs: z.number().positive({ error: "latencyMs must be > 0" }),
  quality: probability("quality"),
});

/** A vendor list price in USD per 1M tokens: at most 4 decimals, so our credit price is exact to 0.001 credit. */
const usdPerMillionTokens = (what: string) =>
  z
    .number({ error: (i) => (i.input === undefined ? `${what} is required` : `${what} must be a number of USD`) })
    .positive({ error: `${what} must be > 0` })
    .refine((usd) => Math.abs(usd * 10_000 - Math.round(usd * 10_000)) < 1e-6, { error: `${what} must have at most 4 decimals` });

/** One model a route serves: the vendor's public per-token list prices and output limits. */
export const ModelSchema = z.strictObject({
  /** The model id as the vendor names it (what callers send as `model`). */
  model: pattern(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, "model"),
  inputUsdPerMillionTokens: usdPerMillionTokens("inputUsdPerMillionTokens"),
  outputUsdPerMillionTokens: usdPerMillionTokens("outputUsdPerMillionTokens"),
  /** The largest max_tokens the vendor accepts for the model. */
  maxOutputTokens: z.number().int().positive({ error: "maxOutputTokens must be a positive integer" }),
  /** Output tokens a reasoning model may bill beyond max_tokens (chain of thought); 0 when max_tokens bounds all output. */
  maxReasoningTokens: z.number().int().nonnegative().default(0),
  /** Where the prices and limits come from (the vendor's pricing and model pages). */
  priceSource: text("priceSource (where the model's prices come from)"),
  /** The slowest the vendor emits this model's output, tokens/s: max_tokens is capped to what fits the provider deadline. */
  outputTokensPerSecond: z.number().int().positive().optional(),
});
export type RawModel = z.infer<typeof ModelSchema>;

export const RouteSchema = z.strictObject({
  providerKey: pattern(KEY_PART, "providerKey"),
  networkKey: z.enum(NETWORK_KEYS),
  routeMode: z.enum(ROUTE_MODES),
  /** The one word to flip when the executor can run this route. */
  status: z.enum(ROUTE_STATUSES),
  /** Mapped and recommendable, but execution is not allowed. */
  executionGated: z.boolean().default(false),
  /** Our per-call price in whole credits (1000 credits = 1 USD): provider cost + margin, minimum 1. */
  priceCredits: z
    .number({ error: (i) => (i.input === undefined ? "priceCredits is required" : "priceCredits must be a number of credits") })
    .int({ error: "priceCredits must be a whole number of credits" })
    .min(1, { error: "priceCredits must be at least 1 credit" }),
  /** Where the price comes from: vendor pricing page, the vendor cost per call, and our margin. */
  priceSource: text("priceSource (where the price comes from)"),
  summary: text("summary"),
  supportedFeatures: z.array(pattern(FEATURE, "feature")).default([]),
  priors: RoutePriorsSchema,
  /**
   * Models the route serves (model routes only). On a route that runs on our own vendor key
   * (direct, managed) their per-token prices are what a call is charged: see derive.ts `billing`.
   */
  models: z.array(ModelSchema).min(1, { error: "models must list at least one model, or be left out" }).optional(),
  /**
   * The vendor bills this route per unit counted in the request (e.g. per recipient), so priceCredits
   * is per unit: a call is charged priceCredits x the values in `fields` (a string counts 1, an array
   * each item). Without it a route on our credentials could be made to cost many times its price.
   */
  billedPer: z
    .strictObject({
      unit: text("billedPer.unit"),
      fields: z.array(text("billedPer.fields[]")).min(1, { error: "billedPer.fields must name at least one execute field" }),
    })
    .optional(),
  /**
   * A byo route that runs on a resource the caller acquired through us (kind as the executor records
   * it, e.g. email.inbox; field: the execute field naming it, e.g. inboxId), on our vendor account:
   * executable for a request that names such a resource. Without it a byo route needs the caller's own
   * account, which we cannot hold, and is never executable.
   */
  ownedResource: z
    .strictObject({
      kind: text("ownedResource.kind"),
      field: text("ownedResource.field"),
    })
    .optional(),
  /**
   * The fixed quota of the vendor plan this route runs on (requests per minute, day or month, for all
   * users together); `perUser`: what one user may spend of it per window (default a tenth, at least 1).
   */
  vendorQuota: z
    .strictObject({
      requests: z.number().int().positive({ error: "vendorQuota.requests must be a positive whole number" }),
      window: z.enum(["minute", "day", "month"]),
      perUser: z.number().int().positive({ error: "vendorQuota.perUser must be a positive whole number" }).optional(),
    })
    .refine((q) => q.perUser === undefined || q.perUser <= q.requests, { error: "vendorQuota.perUser cannot exceed vendorQuota.requests" })
    .optional(),
  /** What makes the vendor's bill for one call grow and what bounds each (bill-drivers.ts); default: the input alone. */
  billDrivers: z.array(BillDriverSchema).min(1).optional(),
  /**
   * The route runs only what a person approved on our side: the execute field `field` names an approval
   * that capability `issuedBy` (a full capability key) issued to this caller for this very input,
   * expiring and used once; the executor refuses anything else before any vendor call.
   */
  requiresApproval: z
    .strictObject({
      issuedBy: pattern(CAPABILITY_KEY, "requiresApproval.issuedBy"),
      field: text("requiresApproval.field"),
    })
    .optional(),
});
export type RawRoute = z.infer<typeof RouteSchema>;

/**
 * What intent routing (POST /route) reads besides the label and description: tasks as an agent would
 * write them, and other words for what the capability does. Required of live and recommend-only
 * capabilities (validate.ts); the evaluation set must never repeat an example (eval/intent/).
 */
export const IntentSchema = z.strictObject({
  examples: z
    .array(text("intent example").max(200, { error: "an intent example must be at most 200 characters" }))
    .min(3, { error: "intent.examples needs at least 3 example tasks" })
    .max(20, { error: "intent.examples holds at most 20 example tasks" }),
  synonyms: z
    .array(text("intent synonym").max(60, { error: "an intent synonym must be at most 60 characters" }))
    .max(40)
    .default([]),
});
export type RawIntent = z.infer<typeof IntentSchema>;

export const CapabilitySchema = z.strictObject({
  /** Dotted parts after the domain key: "send", "inbox.buy", "time.current". */
  key: pattern(CAPABILITY_KEY, "capability key"),
  label: text("label"),
  description: text("description"),
  /** The one word to flip when the executor can run this capability. */
  status: z.enum(CAPABILITY_STATUSES),
  docsUrl: z.url().optional(),
  /**
   * It acts in public in the caller's name (a social post): it may run only on routes that post to the
   * caller's own accounts (`ownedResource`) and only what a person approved (`requiresApproval`). The
   * validation refuses a live route of it without both.
   */
  actsPublicly: z.boolean().default(false),
  /** Why the capability is gated and how an operator may enable it; recommend and execute say it when it is not live. */
  gateReason: text("gateReason").optional(),
  routes: z.array(RouteSchema).min(1, { error: "a capability needs at least one route" }),
  contract: ContractSchema,
  /** Example tasks and synonyms for intent routing. */
  intent: IntentSchema.optional(),
});
export type RawCapability = z.infer<typeof CapabilitySchema>;

/** <domainKey>.yaml: the domain key is the file name. */
export const DomainFileSchema = z.strictObject({
  /** Holder for YAML anchors reused further down the file (e.g. `&recommend`); not read otherwise. */
  anchors: z.record(z.string(), z.unknown()).optional(),
  label: text("label"),
  description: text("description"),
  capabilities: z.array(CapabilitySchema).min(1, { error: "a domain needs at least one capability" }),
});
export type RawDomainFile = z.infer<typeof DomainFileSchema>;

/** _catalog.yaml: which domains exist, in the order the API lists them. */
export const IndexFileSchema = z.strictObject({
  domains: z.array(pattern(KEY_PART, "domain key")).min(1),
});

/** _providers.yaml: every provider a route may name. */
export const ProvidersFileSchema = z.strictObject({
  providers: z.record(pattern(KEY_PART, "providerKey"), z.strictObject({ label: text("label") })),
});
export type RawProviders = z.infer<typeof ProvidersFileSchema>["providers"];

/** _contract-defaults.yaml: fields and notes shared by every contract. */
export const ContractDefaultsFileSchema = z.strictObject({
  /** Added to every contract's notes. */
  contractNotes: notes.default([]),
  /** Put first in every recommend contract (agentName, optimizationPreferences). */
  recommendFields: z.array(FieldSchema).min(1),
  /** Put last in every execute contract (the routing controls provider, routeKey, allowFallback). */
  executeFields: z.array(FieldSchema).min(1),
});
export type RawContractDefaults = z.infer<typeof ContractDefaultsFileSchema>;

/** Names of the catalog-wide files; every other *.yaml file is one domain. */
export const INDEX_FILE = "_catalog.yaml";
export const PROVIDERS_FILE = "_providers.yaml";
export const CONTRACT_DEFAULTS_FILE = "_contract-defaults.yaml";
