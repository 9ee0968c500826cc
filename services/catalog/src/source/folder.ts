// The catalog's files as they ship: one folder of YAML files on the local file system.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
