// The catalog's files as they ship: one folder of YAML files on the local file system.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogFileBytes } from "../compiled";
import type { CatalogFiles } from "../domain";
import { parseYamlFile } from "./yaml-file";

/** The files of the catalog folder `dir`, each read and parsed when asked for. */
export function catalogFolder(dir: string): CatalogFiles {
  return {
    location: dir,
    list: () => readdirSync(dir),
    parse: (file) => parseYamlFile(readFileSync(join(dir, file), "utf8")),
  };
}

/** The YAML files of `dir` (what the loader reads), in name order, each read when the iteration reaches it. */
export function* yamlFilesOf(dir: string): Generator<CatalogFileBytes> {
  const names = readdirSync(dir)
    .filter((n) => n.endsWith(".yaml") || n.endsWith(".yml"))
    .sort();
  for (const name of names) yield { name, bytes: readFileSync(join(dir, name)) };
}

/** Catalog files already read (`files`), as found at `location`: what is compiled is exactly what was keyed. */
export function catalogFilesOf(location: string, files: readonly CatalogFileBytes[]): CatalogFiles {
  const byName = new Map(files.map((f) => [f.name, f.bytes] as const));
  return {
    location,
    list: () => [...byName.keys()],
    parse: (file) => parseYamlFile(byName.get(file)?.toString("utf8") ?? ""),
  };
}
