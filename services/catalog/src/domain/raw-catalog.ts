// The raw catalog: checks each parsed file against its zod schema and records problems with file,
// field path and line; also which domain files exist and in what order. No rule that spans the
// contents of files lives here (see validate.ts).
import type { z } from "zod";
import type { CatalogFiles } from "./ports";
import type { ProblemLog } from "./problems";
import {
  CONTRACT_DEFAULTS_FILE,
  ContractDefaultsFileSchema,
  DomainFileSchema,
  INDEX_FILE,
  IndexFileSchema,
  PROVIDERS_FILE,
  ProvidersFileSchema,
  type RawContractDefaults,
  type RawDomainFile,
  type RawProviders,
} from "./schema";

/** One domain file that passed its schema. */
export interface RawDomain {
  /** The domain key: the file name without ".yaml". */
  key: string;
  file: string;
  data: RawDomainFile;
}

/** Everything that parsed; a file that failed its schema is absent (its problems are in the log). */
export interface RawCatalog {
  /** Domain keys in catalog order (from _catalog.yaml), when that file is valid. */
  domainOrder?: string[];
  providers?: RawProviders;
  defaults?: RawContractDefaults;
  /** Valid domain files, in catalog order when known, else by file name. */
  domains: RawDomain[];
}

/** Schema-checks every catalog file of `files`. */
export function rawCatalogOf(files: CatalogFiles, log: ProblemLog): RawCatalog {
  let names: string[];
  try {
    names = files
      .list()
      .filter((n) => n.endsWith(".yaml") || n.endsWith(".yml"))
      .sort();
  } catch (err) {
    log.add(".", [], `cannot read the catalog directory: ${(err as Error).message}`);
    return { domains: [] };
  }

  const domainOrder = checkFile(files, INDEX_FILE, IndexFileSchema, log, names)?.domains;
  const providers = checkFile(files, PROVIDERS_FILE, ProvidersFileSchema, log, names)?.providers;
  const defaults = checkFile(files, CONTRACT_DEFAULTS_FILE, ContractDefaultsFileSchema, log, names);

  // Domain files are <domainKey>.yaml; a .yml file is reported rather than silently skipped.
  for (const file of names.filter((n) => n.endsWith(".yml"))) log.add(file, [], `rename to ${file.slice(0, -4)}.yaml`);
  const domainFiles = names.filter((n) => n.endsWith(".yaml") && !n.startsWith("_"));
  const domains: RawDomain[] = [];
  for (const file of domainFiles) {
    const data = checkFile(files, file, DomainFileSchema, log, names);
    if (data) domains.push({ key: file.slice(0, -".yaml".length), file, data });
  }

  if (domainOrder) {
    const fileKeys = domainFiles.map((f) => f.slice(0, -".yaml".length));
    domainOrder.forEach((key, i) => {
      if (!fileKeys.includes(key)) log.add(INDEX_FILE, ["domains", i], `domain "${key}" has no file ${key}.yaml`);
    });
    for (const key of fileKeys) {
      if (!domainOrder.includes(key)) log.add(`${key}.yaml`, [], `domain file is not listed in ${INDEX_FILE} domains`);
    }
    const position = new Map(domainOrder.map((k, i) => [k, i] as const));
    domains.sort((a, b) => (position.get(a.key) ?? Infinity) - (position.get(b.key) ?? Infinity));
  }

  return {
    ...(domainOrder ? { domainOrder } : {}),
    ...(providers ? { providers } : {}),
    ...(defaults ? { defaults } : {}),
    domains,
  };
}

/** Parses one file and checks it against `schema`; undefined when it is missing or invalid. */
function checkFile<S extends z.ZodType>(
  files: CatalogFiles,
  file: string,
  schema: S,
  log: ProblemLog,
  existing: readonly string[],
): z.output<S> | undefined {
  if (!existing.includes(file)) {
    log.add(file, [], "file is missing");
    return undefined;
  }
  const parsed = files.parse(file);
  // Lines are looked up only for a problem: the file is read again then, so no parse outlives its check.
  log.setLocator(file, (path) => files.parse(file).locate(path));

  if (parsed.syntaxErrors.length > 0) {
    for (const e of parsed.syntaxErrors) log.add(file, [], e.message, e.line);
    return undefined;
  }
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return checked.data;
  for (const issue of checked.error.issues) {
    const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
    // Name the offending key itself, not the object that holds it.
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) log.add(file, [...path, key], `unknown field "${key}"`);
    } else {
      log.add(file, path, issue.message);
    }
  }
  return undefined;
}
