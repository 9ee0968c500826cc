// Rewrites the capability table in the root README from the built catalog service (dist/):
// `npm run docs:capabilities` builds it first. The catalog's tests fail while the README is stale.
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { DEFAULT_CATALOG_DIR, loadCatalog } = require("../dist/source");
const { renderCapabilityTable, withCapabilityTable } = require("../dist/docs/capability-table");

const readmePath = join(__dirname, "../../../README.md");
const readme = readFileSync(readmePath, "utf8");
const next = withCapabilityTable(readme, renderCapabilityTable(loadCatalog(DEFAULT_CATALOG_DIR)));
if (next !== readme) writeFileSync(readmePath, next);
console.log(next === readme ? "README capability table is up to date" : "README capability table rewritten");
