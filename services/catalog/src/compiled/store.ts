// Where compiled catalogs are kept: one file per key, `<key>.catalog`, in a folder (by default
// dist/compiled-catalog, which the build fills for the shipped catalog, so the image carries it). Written
// whole under a temporary name, then renamed: a reader never sees half a file.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readCompiled } from "./format";
import { servedCatalogOf, type ServedCatalog } from "./served-catalog";

/** services/catalog/dist/compiled-catalog; the same from src/compiled (tests) and dist/compiled (build). */
export const DEFAULT_COMPILED_DIR: string = resolve(__dirname, "../../dist/compiled-catalog");
/** Artifacts kept in a folder (the newest): one per catalog a machine serves, without growing for ever. */
const KEEP = 4;
const SUFFIX = ".catalog";

export const artifactPath = (dir: string, key: string): string => join(dir, `${key}${SUFFIX}`);

/** The catalog compiled under `key` in `dir`; `missing` when there is none, or why it cannot be served. */
export function readArtifact(dir: string, key: string): { catalog: ServedCatalog } | { problem: string } | "missing" {
  let bytes: Buffer;
  try {
    bytes = readFileSync(artifactPath(dir, key));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    return { problem: (err as Error).message };
  }
  const read = readCompiled(bytes, key);
  return "problem" in read ? read : { catalog: servedCatalogOf(read.header, read.body) };
}

/** Writes `bytes` as the artifact of `key` in `dir`, then drops all but the newest few. Throws when it cannot. */
export function writeArtifact(dir: string, key: string, bytes: Buffer): string {
  mkdirSync(dir, { recursive: true });
  const path = artifactPath(dir, key);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
  const artifacts = readdirSync(dir)
    .filter((name) => name.endsWith(SUFFIX))
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of artifacts.slice(KEEP)) rmSync(join(dir, old.name), { force: true });
  return path;
}
