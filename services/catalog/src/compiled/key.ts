// The key of a compiled catalog: what it was compiled from. The YAML's bytes (every .yaml/.yml file,
// by name), the base path its endpoints are derived under, the format, and the compiler itself (this
// service's domain, source and compiled code, and the wire types it encodes with). Any change to any
// of them is another key, so an artifact is never served for data or code it was not compiled from.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILED_FORMAT } from "./format";

/** One catalog file as read: its name in the folder and its bytes. */
export interface CatalogFileBytes {
  name: string;
  bytes: Buffer;
}

/** The key of the files `files` (in name order) compiled under `basePath`: 32 hex characters. */
export function compiledKeyOf(files: Iterable<CatalogFileBytes>, basePath: string): string {
  const hash = createHash("sha256").update(`format ${COMPILED_FORMAT}\0base path ${basePath}\0compiler ${compilerFingerprint()}\0`);
  for (const { name, bytes } of files) hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  return hash.digest("hex").slice(0, 32);
}

let fingerprint: string | undefined;

/** sha256 of the code that turns YAML into the compiled form (read once per process). */
function compilerFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash("sha256");
  const codeDirs = ["domain", "source", "compiled"].map((d) => join(__dirname, "..", d));
  const wireTypes = require.resolve("@agentic/proto/catalog/v1");
  for (const dir of codeDirs) {
    const code = readdirSync(dir)
      .filter((name) => /\.(js|ts)$/.test(name))
      .sort();
    for (const name of code) hash.update(`${name}\0`).update(readFileSync(join(dir, name)));
  }
  hash.update(readFileSync(wireTypes));
  fingerprint = hash.digest("hex");
  return fingerprint;
}
