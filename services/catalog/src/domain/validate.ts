// Rules that span fields or files: unique keys, no domain or capability named after a provider,
// routes only name declared providers, statuses that agree with each other, and contracts (see
// validate-contract.ts). Schema-level rules (types, enums, prices) live in schema.ts.
import { billingOf } from "./derive";
import { capabilityKeyOf, routeKeyOf } from "./keys";
import type { ProblemLog, ScopedProblems } from "./problems";
import type { RawCatalog } from "./raw-catalog";
import { CONTRACT_DEFAULTS_FILE, INDEX_FILE, KEY_PART, PROVIDERS_FILE, type RawCapability } from "./schema";
import { validateContract, validateContractDefaults } from "./validate-contract";
import { KNOWN_VENDORS } from "./vendors";

/** Adds every cross-field problem of `raw` to `log`. */
export function validateCatalog(raw: RawCatalog, log: ProblemLog): void {
  const providerKeys = new Set(Object.keys(raw.providers ?? {}));
  const vendorReason = (name: string): string | undefined =>
    providerKeys.has(name)
      ? `the provider "${name}" (${PROVIDERS_FILE})`
      : KNOWN_VENDORS.has(name)
        ? `the known vendor "${name}"`
        : undefined;

  if (raw.defaults) validateContractDefaults(raw.defaults, log.scoped(CONTRACT_DEFAULTS_FILE));

  if (raw.domainOrder) {
    const index = log.scoped(INDEX_FILE, ["domains"]);
    raw.domainOrder.forEach((key, i) => {
      const first = raw.domainOrder?.indexOf(key) ?? i;
      if (first !== i) index.add([i], `duplicate domain "${key}" (also domains[${first}])`);
      const vendor = vendorReason(key);
      if (vendor) index.add([i], `domain "${key}" is named after ${vendor}; domains name a problem area, never a vendor`);
    });
  }

  const dtoNames = new Map<string, string>();
  for (const domain of raw.domains) {
    const out = log.scoped(domain.file);
    if (!KEY_PART.test(domain.key)) out.add([], `file name must be a domain key matching ${KEY_PART}`);
    const seen = new Map<string, number>();
    domain.data.capabilities.forEach((capability, i) => {
      const at = out.at(["capabilities", i]);
      const first = seen.get(capability.key);
      if (first !== undefined) at.add(["key"], `duplicate capability key "${capability.key}" (also capabilities[${first}])`);
      else seen.set(capability.key, i);
      for (const part of capability.key.split(".")) {
        const vendor = vendorReason(part);
        if (vendor) at.add(["key"], `"${part}" names ${vendor}; name capabilities after what they do and put providers on routes`);
      }
      validateRoutes(domain.key, capability, raw.providers ? providerKeys : undefined, at);
      validateStatuses(capability, at);
      validateIntent(capability, at);
      validateModels(capability, at);
      validateUnitBilling(capability, at);
      validateOwnedResources(capability, at);
      validateVendorQuotas(capability, at);
      validatePublicActions(capability, at);
      validateContract(
        capability.contract,
        {
          routes: capability.routes.map((r) => ({
            routeKey: routeKeyOf(capabilityKeyOf(domain.key, capability.key), r.providerKey, r.networkKey),
            providerKey: r.providerKey,
            priceCredits: r.priceCredits,
          })),
          defaults: raw.defaults,
          dtoNames,
        },
        at.at(["contract"]),
      );
    });
  }
}

/**
 * Intent data names no example and no synonym twice. (That every live and recommend-only capability of
 * the shipped catalog has intent data is checked by catalog-data.test.ts; small test catalogs may omit it.)
 */
function validateIntent(capability: RawCapability, at: ScopedProblems): void {
  if (!capability.intent) return;
  const repeated = (list: readonly string[], field: string) =>
    list.forEach((item, i) => {
      const first = list.findIndex((other) => other.trim().toLowerCase() === item.trim().toLowerCase());
      if (first !== i) at.add(["intent", field, i], `repeats intent.${field}[${first}]`);
    });
  repeated(capability.intent.examples, "examples");
  repeated(capability.intent.synonyms, "synonyms");
}

/** Each route names a declared provider, and no two routes of a capability share a route key. */
function validateRoutes(domainKey: string, capability: RawCapability, providerKeys: Set<string> | undefined, at: ScopedProblems): void {
  const capabilityKey = capabilityKeyOf(domainKey, capability.key);
  const keys = new Map<string, number>();
  capability.routes.forEach((route, j) => {
    if (providerKeys && !providerKeys.has(route.providerKey)) {
      at.add(["routes", j, "providerKey"], `unknown provider "${route.providerKey}"; declare it in ${PROVIDERS_FILE}`);
    }
    const routeKey = routeKeyOf(capabilityKey, route.providerKey, route.networkKey);
    const first = keys.get(routeKey);
    if (first !== undefined) at.add(["routes", j], `duplicate route key "${routeKey}" (also routes[${first}])`);
    else keys.set(routeKey, j);
  });
}

/**
 * Status rules: a live capability has a route the executor can run; a recommend_only capability
 * has no route that may execute; a route is never live while its capability is planned or pending.
 */
function validateStatuses(capability: RawCapability, at: ScopedProblems): void {
  const { status, routes } = capability;
  if (status === "live" && !routes.some((r) => r.status === "live" && !r.executionGated)) {
    at.add(["status"], 'a "live" capability needs at least one route with status "live" that is not executionGated');
  }
  routes.forEach((route, j) => {
    if (status === "recommend_only" && !route.executionGated) {
      at.add(["routes", j, "executionGated"], 'must be true: the capability is "recommend_only", so none of its routes may execute');
    }
    if (route.status === "live" && (status === "planned" || status === "pending")) {
      at.add(["routes", j, "status"], `a route cannot be "live" while its capability is "${status}"`);
    }
  });
}

/**
 * Model routes. Each route lists a model once. When some route of a capability lists models, a request
 * is routed by its `model`, so: the execute contract requires a string `model`; every live route lists
 * what it serves (a route listing none serves no model); and a per-token route (our own vendor key,
 * billed by tokens) needs an integer `max_tokens` with min 1, the only bound on the vendor's output bill.
 */
function validateModels(capability: RawCapability, at: ScopedProblems): void {
  if (!capability.routes.some((r) => r.models)) return;
  capability.routes.forEach((route, j) => {
    const seen = new Map<string, number>();
    route.models?.forEach((m, k) => {
      const first = seen.get(m.model);
      if (first !== undefined) at.add(["routes", j, "models", k, "model"], `duplicate model "${m.model}" (also models[${first}])`);
      else seen.set(m.model, k);
    });
    if (!route.models && route.status === "live") {
      at.add(
        ["routes", j],
        "a live route of a capability whose routes serve models must list its models (a route listing none serves no model)",
      );
    }
  });
  const execute = capability.contract.execute;
  const model = execute?.fields.find((f) => f.name === "model");
  if (!execute || model?.type !== "string" || !execute.requiredFields.includes("model")) {
    at.add(["contract", "execute"], 'its routes list models, so the execute contract needs a required string field "model" to route by');
  }
  if (capability.routes.some((r) => billingOf(r) === "per_token")) {
    const maxTokens = execute?.fields.find((f) => f.name === "max_tokens");
    if (maxTokens?.type !== "integer" || maxTokens.min === undefined || maxTokens.min < 1) {
      at.add(
        ["contract", "execute"],
        'a per-token route needs an integer execute field "max_tokens" with min 1: it bounds what the vendor can bill for output',
      );
    }
  }
}

/**
 * A route that runs on an owned resource is a byo route, and names the resource with an execute field
 * of the capability (the executor checks the caller owns what it names before anything is held).
 */
function validateOwnedResources(capability: RawCapability, at: ScopedProblems): void {
  capability.routes.forEach((route, j) => {
    if (!route.ownedResource) return;
    if (route.routeMode !== "byo") at.add(["routes", j, "ownedResource"], "only a byo route runs on a resource the caller owns");
    if (!capability.contract.execute?.fields.some((f) => f.name === route.ownedResource?.field))
      at.add(["routes", j, "ownedResource", "field"], `"${route.ownedResource.field}" must be an execute field of the capability`);
  });
}

/**
 * A vendor quota is our plan's, so only a route on our own vendor account spends one: a managed route
 * on the direct network, or a byo route on a resource the caller acquired through us (ownedResource:
 * an inbox, a social profile), which runs on that same account.
 */
function validateVendorQuotas(capability: RawCapability, at: ScopedProblems): void {
  capability.routes.forEach((route, j) => {
    const onOurAccount = route.routeMode === "managed" || (route.routeMode === "byo" && route.ownedResource !== undefined);
    if (route.vendorQuota && (!onOurAccount || route.networkKey !== "direct"))
      at.add(
        ["routes", j, "vendorQuota"],
        "only a route on our own vendor account (managed, or byo on an owned resource) on the direct network runs on our vendor plan's quota",
      );
  });
}

/**
 * A capability that acts in public in the caller's name (actsPublicly) runs only where both rules hold:
 * a route that could execute (live, not gated) posts to an account the caller owns (ownedResource) and
 * runs only an approval issued on our side (requiresApproval, named by an execute field). An operator
 * who turns such a route live without them gets this refusal, not a public post in the platform's name.
 */
function validatePublicActions(capability: RawCapability, at: ScopedProblems): void {
  capability.routes.forEach((route, j) => {
    const approval = route.requiresApproval;
    if (approval && !capability.contract.execute?.fields.some((f) => f.name === approval.field))
      at.add(["routes", j, "requiresApproval", "field"], `"${approval.field}" must be an execute field of the capability`);
    if (!capability.actsPublicly || route.status !== "live" || route.executionGated) return;
    if (!route.ownedResource)
      at.add(
        ["routes", j, "ownedResource"],
        "required: the capability acts publicly (actsPublicly), so a live route must post to an account the caller owns, not the platform's",
      );
    if (!approval)
      at.add(
        ["routes", j, "requiresApproval"],
        "required: the capability acts publicly (actsPublicly), so a live route must run only an approval issued on our side",
      );
  });
}

/**
 * Routes billed per unit (billedPer): each field that counts the units must be an execute field that
 * is a string or an array of strings (a string counts 1, an array each item), so the executor can
 * count them before it holds.
 */
function validateUnitBilling(capability: RawCapability, at: ScopedProblems): void {
  capability.routes.forEach((route, j) => {
    route.billedPer?.fields.forEach((name, k) => {
      const field = capability.contract.execute?.fields.find((f) => f.name === name);
      const counts = field && (field.type === "string" || (field.type === "array" && field.itemsType === "string"));
      if (!counts)
        at.add(
          ["routes", j, "billedPer", "fields", k],
          `"${name}" must be an execute field of type string or array of strings (it counts the units billed)`,
        );
    });
  });
}
