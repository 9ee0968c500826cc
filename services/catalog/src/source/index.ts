// Where catalog data comes from: the folder of YAML files shipped with the service (or another
// one, e.g. a test fixture), read and handed to the domain to check, derive and index; and the
// compiled form the service serves, read from its artifact when one was compiled from these very
// files, else compiled from them (and stored for the next start).
import { resolve } from "node:path";
import {
  artifactPath,
  compileCatalog,
  compiledKeyOf,
  DEFAULT_COMPILED_DIR,
  readArtifact,
  readCompiled,
  servedCatalogOf,
  writeArtifact,
} from "../compiled";
import type { CatalogFileBytes, ServedCatalog } from "../compiled";
import { buildCatalog, DEFAULT_BASE_PATH, type BuildCatalogOptions, type CatalogIndex } from "../domain";
import { catalogFilesOf, catalogFolder, yamlFilesOf } from "./folder";

/** Absolute path of services/catalog/catalog; the same from src/source (tests) and dist/source (build). */
export const DEFAULT_CATALOG_DIR: string = resolve(__dirname, "../../catalog");
export { DEFAULT_COMPILED_DIR };

export type LoadCatalogOptions = BuildCatalogOptions;

/**
 * Loads and validates the catalog in `dir` (see DEFAULT_CATALOG_DIR).
 * @throws CatalogValidationError listing every problem (file, field path, line) when the data is invalid.
 */
export function loadCatalog(dir: string, opts: LoadCatalogOptions = {}): CatalogIndex {
  return buildCatalog(catalogFolder(dir), opts);
}

export interface LoadServedCatalogOptions extends LoadCatalogOptions {
  /** Folder of compiled artifacts (default DEFAULT_COMPILED_DIR); false: compile in memory, read and write none. */
  compiledDir?: string | false;
}

export interface LoadedCatalog {
  catalog: ServedCatalog;
  /** "artifact": read from the compiled artifact of these files; "yaml": compiled from the YAML now. */
  from: "artifact" | "yaml";
  /** The artifact read or written. */
  artifact?: string;
  /** Why an artifact present was not served, or why the one compiled now could not be stored. */
  problem?: string;
}

/**
 * The catalog in `dir` in its served, compiled form.
 * @throws CatalogValidationError when it has to be compiled and the data is invalid.
 */
export function loadServedCatalog(dir: string, opts: LoadServedCatalogOptions = {}): LoadedCatalog {
  const basePath = opts.basePath ?? DEFAULT_BASE_PATH;
  const compiledDir = opts.compiledDir ?? DEFAULT_COMPILED_DIR;
  let problem: string | undefined;
  const key = compiledDir === false ? undefined : keyOfFolder(dir, basePath);
  if (compiledDir !== false && key !== undefined) {
    const found = readArtifact(compiledDir, key);
    if (typeof found === "object" && "catalog" in found)
      return { catalog: found.catalog, from: "artifact", artifact: artifactPath(compiledDir, key) };
    if (typeof found === "object") problem = `compiled artifact not served: ${found.problem}`;
  }
  const compiled = compileFolder(dir, opts);
  const read = readCompiled(compiled.bytes, compiled.key);
  if ("problem" in read) throw new Error(`the catalog compiled from ${dir} does not read back: ${read.problem}`);
  const catalog = servedCatalogOf(read.header, read.body);
  if (compiledDir === false) return { catalog, from: "yaml", ...(problem ? { problem } : {}) };
  try {
    return { catalog, from: "yaml", artifact: writeArtifact(compiledDir, compiled.key, compiled.bytes), ...(problem ? { problem } : {}) };
  } catch (err) {
    const stored = `compiled artifact not stored in ${compiledDir}: ${(err as Error).message}`;
    return { catalog, from: "yaml", problem: problem ? `${problem}; ${stored}` : stored };
  }
}

/** The key of the YAML in `dir`, read one file at a time; undefined when the folder cannot be read (compiling then reports it). */
function keyOfFolder(dir: string, basePath: string): string | undefined {
  try {
    return compiledKeyOf(yamlFilesOf(dir), basePath);
  } catch {
    return undefined;
  }
}

/** Compiles the YAML of `dir` from the bytes it is keyed by: a file changing meanwhile cannot leave an artifact of other data. */
function compileFolder(dir: string, opts: LoadCatalogOptions): { key: string; bytes: Buffer } {
  let files: CatalogFileBytes[];
  try {
    files = [...yamlFilesOf(dir)];
  } catch {
    loadCatalog(dir, opts); // throws CatalogValidationError naming the folder it cannot read
    throw new Error(`cannot read the catalog at ${dir}`);
  }
  const key = compiledKeyOf(files, opts.basePath ?? DEFAULT_BASE_PATH);
  return { key, bytes: compileCatalog(buildCatalog(catalogFilesOf(dir, files), opts), key) };
}
