// The root README's capability table is the catalog's, rendered: a status flipped in the data
// without `npm run docs:capabilities` fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderCapabilityTable, withCapabilityTable } from "../src/docs/capability-table";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "../src/source";

describe("README capability table", () => {
  it("matches the catalog (run `npm run docs:capabilities` after changing catalog data)", () => {
    const readme = readFileSync(join(__dirname, "../../../README.md"), "utf8");
    const table = renderCapabilityTable(loadCatalog(DEFAULT_CATALOG_DIR));
    expect(withCapabilityTable(readme, table)).toBe(readme);
  });

  it("counts every capability once, per domain and in total", () => {
    const catalog = loadCatalog(DEFAULT_CATALOG_DIR);
    const table = renderCapabilityTable(catalog);
    const capabilities = catalog.listDomains().flatMap((d) => catalog.listCapabilities(d.domainKey) ?? []);
    expect(table).toContain(`of ${capabilities.length} capabilities are live`);
    const domainRows = table.split("\n").filter((l) => /^\| [a-z]+ \| \d+ \| \d+ \| \d+ \|$/.test(l));
    const summed = domainRows
      .map((l) =>
        l
          .split("|")
          .slice(2, 5)
          .reduce((n, x) => n + Number(x), 0),
      )
      .reduce((a, b) => a + b, 0);
    expect(domainRows).toHaveLength(17);
    expect(summed).toBe(capabilities.length);
    for (const c of capabilities) expect(table).toContain(`| \`${c.capabilityKey}\` | ${c.status} |`);
  });
});
