// Public surface of the catalog domain: load the YAML catalog once, then serve it read-only.
import { resolve } from "node:path";

export type { Capability, Contract, Domain, FieldContract, OperationContract, Route, RoutePriors } from "@agentic/proto/catalog/v1";
export type { CatalogIndex, CatalogSummary } from "./catalog-index";
export { isLiveRoute } from "./derive";
export { DEFAULT_BASE_PATH, loadCatalog, type LoadCatalogOptions } from "./load";
export { CatalogValidationError, formatProblem, type CatalogProblem } from "./problems";

/** Absolute path of services/catalog/catalog; the same from src/domain (tests) and dist/domain (build). */
export const DEFAULT_CATALOG_DIR: string = resolve(__dirname, "../../catalog");
