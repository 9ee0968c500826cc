// Reads the catalog directory: parses every YAML file (anchors and merge keys allowed), checks
// each against its zod schema, and records problems with file, field path and line. No rule
// that spans files lives here (see validate.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Document, LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Node } from "yaml";
import type { z } from "zod";
import { type FieldPath, type ProblemLog } from "./problems";
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

/** Reads and schema-checks every file in `dir`. */
export function readCatalog(dir: string, log: ProblemLog): RawCatalog {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".yaml") || n.endsWith(".yml"))
      .sort();
  } catch (err) {
    log.add(".", [], `cannot read the catalog directory: ${(err as Error).message}`);
    return { domains: [] };
  }

  const domainOrder = readFile(dir, INDEX_FILE, IndexFileSchema, log, names)?.domains;
  const providers = readFile(dir, PROVIDERS_FILE, ProvidersFileSchema, log, names)?.providers;
  const defaults = readFile(dir, CONTRACT_DEFAULTS_FILE, ContractDefaultsFileSchema, log, names);

  // Domain files are <domainKey>.yaml; a .yml file is reported rather than silently skipped.
  for (const file of names.filter((n) => n.endsWith(".yml"))) log.add(file, [], `rename to ${file.slice(0, -4)}.yaml`);
  const domainFiles = names.filter((n) => n.endsWith(".yaml") && !n.startsWith("_"));
  const domains: RawDomain[] = [];
  for (const file of domainFiles) {
    const data = readFile(dir, file, DomainFileSchema, log, names);
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
function readFile<S extends z.ZodType>(
  dir: string,
  file: string,
  schema: S,
  log: ProblemLog,
  existing: readonly string[],
): z.output<S> | undefined {
  if (!existing.includes(file)) {
    log.add(file, [], "file is missing");
    return undefined;
  }
  const lines = new LineCounter();
  // uniqueKeys rejects duplicate keys in one mapping; merge enables YAML `<<: *anchor` for shared blocks.
  const doc = parseDocument(readFileSync(join(dir, file), "utf8"), { lineCounter: lines, merge: true, uniqueKeys: true });
  log.setLocator(file, (path) => locate(doc, lines, path));

  if (doc.errors.length > 0) {
    for (const e of doc.errors) log.add(file, [], `YAML syntax error: ${firstLine(e.message)}`, e.linePos?.[0].line);
    return undefined;
  }
  const parsed = schema.safeParse(doc.toJS({ maxAliasCount: 10_000 }));
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
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

/** Best-effort line of a field path, following aliases and merge keys. */
function locate(doc: Document, lines: LineCounter, path: FieldPath): number | undefined {
  if (path.length === 0) return undefined; // a whole-file problem has no line
  let node: unknown = doc.contents;
  let found: Node | undefined = isNode(node) ? node : undefined;
  for (const segment of path) {
    node = step(doc, node, segment);
    if (!isNode(node)) break;
    found = node;
  }
  const offset = found?.range?.[0];
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

function step(doc: Document, node: unknown, segment: string | number): unknown {
  if (isAlias(node)) node = node.resolve(doc);
  if (isSeq(node) && typeof segment === "number") return node.items[segment];
  if (!isMap(node)) return undefined;
  for (const pair of node.items) {
    if (isPair(pair) && isScalar(pair.key) && typeof pair.key.value !== "symbol" && String(pair.key.value) === String(segment)) {
      return pair.value ?? pair.key;
    }
  }
  for (const pair of node.items) {
    // yaml keeps a merge key's source text "<<" (its value is a symbol).
    if (isPair(pair) && isScalar(pair.key) && pair.key.source === "<<") {
      const hit = step(doc, pair.value, segment);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && "range" in value;
}

/** yaml's messages end with a code excerpt; keep the first line without its trailing colon. */
function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/:\s*$/, "");
}
