// Catalog problems: how a broken catalog is reported. Every problem names the file (relative to
// the catalog directory) and the field path inside it, so an author can go straight to the fix.
import { StartupError } from "@agentic/platform/core";

/** A path into a parsed YAML file, e.g. ["capabilities", 0, "routes", 1, "priceCredits"]. */
export type FieldPath = readonly (string | number)[];

/** One thing wrong with the catalog data. */
export interface CatalogProblem {
  /** File name relative to the catalog directory, e.g. "email.yaml". */
  file: string;
  /** Field path inside the file, e.g. "capabilities[0].routes[1].priceCredits"; "" = the whole file. */
  path: string;
  message: string;
  /** 1-based line of the field in the file, when it can be located. */
  line?: number;
}

/** Thrown by buildCatalog when the data breaks any rule; lists every problem found, not just the first. */
export class CatalogValidationError extends StartupError {
  readonly problems: CatalogProblem[];

  constructor(dir: string, problems: CatalogProblem[]) {
    const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
    super(`catalog at ${dir} is invalid (${count}):\n${problems.map((p) => `  - ${formatProblem(p)}`).join("\n")}`);
    this.name = "CatalogValidationError";
    this.problems = problems;
  }
}

/** "email.yaml:42 capabilities[0].routes[1].priceCredits: must be ≥ 1". */
export function formatProblem(p: CatalogProblem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}`;
  return p.path === "" ? `${where}: ${p.message}` : `${where} ${p.path}: ${p.message}`;
}

/** ["capabilities", 0, "key"] -> "capabilities[0].key". */
export function formatPath(path: FieldPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

/** Finds the 1-based line of a field path in one file, or undefined. */
export type Locator = (path: FieldPath) => number | undefined;

/** Collects problems across files; the loader throws once at the end with all of them. */
export class ProblemLog {
  private readonly items: CatalogProblem[] = [];
  private readonly locators = new Map<string, Locator>();

  /** Registers how to find line numbers in `file`. */
  setLocator(file: string, locate: Locator): void {
    this.locators.set(file, locate);
  }

  /** Records a problem; `line` overrides the located line (e.g. for YAML syntax errors). */
  add(file: string, path: FieldPath, message: string, line = this.locators.get(file)?.(path)): void {
    this.items.push({ file, path: formatPath(path), message, ...(line === undefined ? {} : { line }) });
  }

  get problems(): readonly CatalogProblem[] {
    return this.items;
  }

  /** A view that adds problems to one file under a path prefix. */
  scoped(file: string, prefix: FieldPath = []): ScopedProblems {
    return {
      file,
      add: (path, message) => this.add(file, [...prefix, ...path], message),
      at: (path) => this.scoped(file, [...prefix, ...path]),
    };
  }
}

/** Problem sink bound to one file and a path prefix inside it. */
export interface ScopedProblems {
  readonly file: string;
  add(path: FieldPath, message: string): void;
  at(path: FieldPath): ScopedProblems;
}
