// buildCatalog: schema-check -> validate -> derive -> index, over files a source has read. Collects
// every problem before failing, so one run tells an author everything that is wrong with the data.
import { createCatalogIndex, type CatalogIndex } from "./catalog-index";
import { deriveCatalog } from "./derive";
import type { CatalogFiles } from "./ports";
import { CatalogValidationError, ProblemLog } from "./problems";
import { rawCatalogOf } from "./raw-catalog";
import { validateCatalog } from "./validate";

/** Prefix of every derived path and endpoint. */
export const DEFAULT_BASE_PATH = "/api/agentic-api";

export interface BuildCatalogOptions {
  /** Server-relative prefix of derived paths; default "/api/agentic-api". "" serves from the root. */
  basePath?: string;
}

/**
 * Builds the served catalog from its files.
 * @throws CatalogValidationError listing every problem (file, field path, line) when the data is invalid.
 */
export function buildCatalog(files: CatalogFiles, opts: BuildCatalogOptions = {}): CatalogIndex {
  const basePath = normalizeBasePath(opts.basePath ?? DEFAULT_BASE_PATH);
  const log = new ProblemLog();
  const raw = rawCatalogOf(files, log);
  validateCatalog(raw, log);
  if (log.problems.length > 0 || !raw.providers || !raw.defaults) {
    throw new CatalogValidationError(files.location, [...log.problems]);
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
