// Renders catalog messages as the spec's JSON resources: exactly the spec's fields, optional ones
// omitted when unset, and nothing internal (priors, gating flags, price sources and the vendors' own
// list prices stay inside). Extensions: a route's billing and the priced models it serves.
import type { Capability, Contract, Domain, FieldContract, ModelPrice, OperationContract, Route } from "@agentic/proto/catalog/v1";

/** Copies `value` under `key` only when it is set (the spec's optional fields are omitted, not null). */
function optional<T>(key: string, value: T | undefined): Record<string, T> {
  return value === undefined ? {} : { [key]: value };
}

/** Same, for arrays: an empty optional array is omitted. */
function optionalList<T>(key: string, value: T[]): Record<string, T[]> {
  return value.length === 0 ? {} : { [key]: value };
}

export function toDomainEntry(d: Domain) {
  return {
    domainKey: d.domainKey,
    label: d.label,
    description: d.description,
    status: d.status,
    capabilitiesPath: d.capabilitiesPath,
    routesPath: d.routesPath,
    routeEndpoint: d.routeEndpoint ?? null,
    supportsIntentRouting: d.supportsIntentRouting,
    liveCapabilityCount: d.liveCapabilityCount,
    totalCapabilityCount: d.totalCapabilityCount,
    ...optional("startingPriceCredits", d.startingPriceCredits),
  };
}

export function toCapabilityEntry(c: Capability) {
  return {
    capabilityKey: c.capabilityKey,
    capabilityId: c.capabilityId,
    domainKey: c.domainKey,
    label: c.label,
    description: c.description,
    status: c.status,
    supportedProviders: c.supportedProviders,
    enabledProviders: c.enabledProviders,
    supportedFeatures: c.supportedFeatures,
    availableRouteModes: c.availableRouteModes,
    ...optional("startingPriceCredits", c.startingPriceCredits),
    ...optional("recommendEndpoint", c.recommendEndpoint),
    ...optional("executeEndpoint", c.executeEndpoint),
    routesEndpoint: c.routesEndpoint ?? null,
    ...optional("docsUrl", c.docsUrl),
    ...optional("contractEndpoint", c.contractEndpoint),
    contractStatus: c.contractStatus,
    ...optional("gateReason", c.gateReason),
  };
}

export function toRouteEntry(r: Route) {
  return {
    routeKey: r.routeKey,
    domainKey: r.domainKey,
    capabilityKey: r.capabilityKey,
    capabilityId: r.capabilityId,
    providerKey: r.providerKey,
    providerLabel: r.providerLabel,
    networkKey: r.networkKey,
    routeMode: r.routeMode,
    managedByAgenticApi: r.managedByAgenticApi,
    ...optional("settlementRail", r.settlementRail),
    supportedFeatures: r.supportedFeatures,
    summary: r.summary,
    startingCostCredits: r.startingCostCredits,
    status: r.status,
    billing: r.billing || "per_call",
    ...(r.billedPer ? { billedPer: { unit: r.billedPer.unit, fields: r.billedPer.fields } } : {}),
    ...optionalList("models", r.models.map(toModelEntry)),
  };
}

/** A model a route serves, at our per-token prices (credits per 1M tokens). */
function toModelEntry(m: ModelPrice) {
  return {
    model: m.model,
    inputCreditsPerMillionTokens: m.inputCreditsPerMillionTokens,
    outputCreditsPerMillionTokens: m.outputCreditsPerMillionTokens,
    maxOutputTokens: m.maxOutputTokens,
    ...(m.maxReasoningTokens > 0 ? { maxReasoningTokens: m.maxReasoningTokens } : {}),
  };
}

type FieldEntry = Record<string, unknown>;

function toFieldEntry(f: FieldContract): FieldEntry {
  return {
    name: f.name,
    type: f.type,
    required: f.required,
    ...optional("conditionallyRequired", f.conditionallyRequired),
    ...optionalList("enumValues", f.enumValues),
    ...optional("maxLength", f.maxLength),
    ...optional("itemMaxLength", f.itemMaxLength),
    ...optional("min", f.min),
    ...optional("max", f.max),
    ...optional("itemsType", f.itemsType),
    ...optionalList("fields", f.fields.map(toFieldEntry)),
    ...optionalList("notes", f.notes),
    ...optional("format", f.format),
  };
}

function toOperationEntry(op: OperationContract) {
  return {
    status: op.status,
    ...optional("dtoName", op.dtoName),
    requiredFields: op.requiredFields,
    optionalFields: op.optionalFields,
    conditionallyRequiredFields: op.conditionallyRequiredFields,
    fields: op.fields.map(toFieldEntry),
    ...optional("requestExample", op.requestExample),
    ...optional("responseExample", op.responseExample),
    notes: op.notes,
    ...optionalList(
      "oneOfRequired",
      op.oneOfRequired.map((g) => g.fields),
    ),
  };
}

export function toContractEntry(c: Contract) {
  return {
    domainKey: c.domainKey,
    capabilityKey: c.capabilityKey,
    capabilityId: c.capabilityId,
    ...optional("docsUrl", c.docsUrl),
    contractStatus: c.contractStatus,
    ...optional("recommend", c.recommend && toOperationEntry(c.recommend)),
    ...optional("execute", c.execute && toOperationEntry(c.execute)),
    notes: c.notes,
  };
}
