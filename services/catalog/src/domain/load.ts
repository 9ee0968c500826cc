// loadCatalog: read -> validate -> derive -> index. Collects every problem before failing, so one
// run of the loader tells an author everything that is wrong with the data.
import { createCatalogIndex, type CatalogIndex } from "./catalog-index";
import { deriveCatalog } from "./derive";
import { CatalogValidationError, ProblemLog } from "./problems";
import { readCatalog } from "./read";
import { validateCatalog } from "./validate";

/** Prefix of every derived path and endpoint. */
export const DEFAULT_BASE_PATH = "/api/agentic-api";

export interface LoadCatalogOptions {
  /** Server-relative prefix of derived paths; default "/api/agentic-api". "" serves from the root. */
  basePath?: string;
}

/**
 * Loads and validates the catalog in `dir` (see DEFAULT_CATALOG_DIR).
 * @throws CatalogValidationError listing every problem (file, field path, line) when the data is invalid.
 */
export function loadCatalog(dir: string, opts: LoadCatalogOptions = {}): CatalogIndex {
  const basePath = normalizeBasePath(opts.basePath ?? DEFAULT_BASE_PATH);
  const log = new ProblemLog();
  const raw = readCatalog(dir, log);
  validateCatalog(raw, log);
  if (log.problems.length > 0 || !raw.providers || !raw.defaults) {
    throw new CatalogValidationError(dir, [...log.problems]);
  }
  return createCatalogIndex(deriveCatalog({ domains: raw.domains, providers: raw.providers, defaults: raw.defaults }, basePath));
}

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, "");
  if (trimmed !== "" && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new TypeError(`basePath must look like "/api/agentic-api", got ${JSON.stringify(basePath)}`);
  }
  return trimmed;
}
