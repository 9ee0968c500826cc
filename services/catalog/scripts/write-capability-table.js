// Rewrites the capability table of docs/capabilities.md from the built catalog service (dist/):
// `npm run docs:capabilities` builds it first. The catalog's tests fail while the page is stale.
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { DEFAULT_CATALOG_DIR, loadCatalog } = require("../dist/source");
const { renderCapabilityTable, withCapabilityTable } = require("../dist/docs/capability-table");

const pagePath = join(__dirname, "../../../docs/capabilities.md");
const page = readFileSync(pagePath, "utf8");
const next = withCapabilityTable(page, renderCapabilityTable(loadCatalog(DEFAULT_CATALOG_DIR)));
if (next !== page) writeFileSync(pagePath, next);
console.log(
  next === page ? "docs/capabilities.md: the capability table is up to date" : "docs/capabilities.md: the capability table rewritten",
);
