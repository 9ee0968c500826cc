// Public surface of the catalog domain: build the catalog once from its parsed files, then serve it read-only.
export type { Capability, Contract, Domain, FieldContract, OperationContract, Route, RoutePriors } from "@agentic/proto/catalog/v1";
export { buildCatalog, DEFAULT_BASE_PATH, type BuildCatalogOptions } from "./build";
export type { CatalogIndex, CatalogSummary } from "./catalog-index";
export type { CatalogFiles, ParsedFile, SyntaxProblem } from "./ports";
export { CatalogValidationError, formatProblem, type CatalogProblem, type FieldPath } from "./problems";
export { capabilityNotFound, domainNotFound } from "./lookups";
export { isLiveRoute, routeReadiness } from "./readiness";
