// Where catalog data comes from: the folder of YAML files shipped with the service (or another
// one, e.g. a test fixture), read and handed to the domain to check, derive and index.
import { resolve } from "node:path";
import { buildCatalog, type BuildCatalogOptions, type CatalogIndex } from "../domain";
import { catalogFolder } from "./folder";

/** Absolute path of services/catalog/catalog; the same from src/source (tests) and dist/source (build). */
export const DEFAULT_CATALOG_DIR: string = resolve(__dirname, "../../catalog");

export type LoadCatalogOptions = BuildCatalogOptions;

/**
 * Loads and validates the catalog in `dir` (see DEFAULT_CATALOG_DIR).
 * @throws CatalogValidationError listing every problem (file, field path, line) when the data is invalid.
 */
export function loadCatalog(dir: string, opts: LoadCatalogOptions = {}): CatalogIndex {
  return buildCatalog(catalogFolder(dir), opts);
}
