// `node services/catalog/scripts/compile-catalog.js [catalogDir] [--base-path <path>] [--out <dir>]`:
// compiles a catalog (default: the shipped one) into its served form and stores it where the service
// reads it at start (default dist/compiled-catalog). The catalog's build runs it, so the image carries the
// compiled shipped catalog and a start reads it instead of checking and deriving the YAML again. An
// artifact already compiled from the same YAML and code is kept, a damaged one compiled again (said, not a
// failure). Prints where it is, how long it took and its peak RSS; exits 1 only when no artifact could be stored.
const { loadServedCatalog, DEFAULT_CATALOG_DIR, DEFAULT_COMPILED_DIR } = require("../dist/source");

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args.splice(i, 2)[1];
};
const basePath = option("--base-path");
const out = option("--out") ?? DEFAULT_COMPILED_DIR;
const dir = args[0] ?? DEFAULT_CATALOG_DIR;

const started = performance.now();
const loaded = loadServedCatalog(dir, { basePath, compiledDir: out });
if (loaded.problem) console.error(loaded.problem);
// A repaired artifact is a success; one that could not be written leaves the image without its compiled catalog.
if (loaded.from === "yaml" && loaded.artifact === undefined) process.exitCode = 1;
console.log(
  `catalog ${loaded.catalog.version}: ${loaded.from === "artifact" ? "already compiled" : "compiled"} in ${loaded.artifact ?? out} ` +
    `(${(loaded.catalog.compiledBytes / 2 ** 20).toFixed(1)} MB, ${Math.round(performance.now() - started)} ms, ` +
    `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB)`,
);
