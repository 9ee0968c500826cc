// The catalog reads: domains, capabilities, routes and contracts.

import type { JsonObject } from "../document";
import type { Examples } from "../examples";
import { arrayOf, ref } from "../json-schema";
import { ok, operation, paramRef } from "../operation";

export function catalogPaths(ex: Examples): Record<string, Record<string, JsonObject>> {
  const domain = [paramRef("domainKey")];
  const capability = [paramRef("domainKey"), paramRef("capabilityId")];
  const capabilityPath = "/domains/{domainKey}/capabilities/{capabilityId}";
  return {
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
  };
}
