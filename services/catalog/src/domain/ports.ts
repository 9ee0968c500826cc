// What the catalog domain needs from outside: the catalog's files, already read and parsed. The
// shipped source is a folder of YAML files (src/source/); the domain never touches a file itself.
import type { FieldPath } from "./problems";

/** A syntax error in one file, worded for the author, with its 1-based line when known. */
export interface SyntaxProblem {
  message: string;
  line?: number;
}

/** One parsed file. */
export interface ParsedFile {
  /** What did not parse; when there is any, `value` is undefined. */
  syntaxErrors: SyntaxProblem[];
  /** The file's data as plain values (objects, arrays, scalars). */
  value: unknown;
  /** 1-based line of a field path in the file, when it can be found. */
  locate(path: FieldPath): number | undefined;
}

/** The catalog's files. */
export interface CatalogFiles {
  /** Where they are, as named in a CatalogValidationError (e.g. the folder's path). */
  readonly location: string;
  /** Every file name, sorted; throws when they cannot be listed. */
  list(): string[];
  /** Reads and parses one listed file. */
  parse(file: string): ParsedFile;
}
