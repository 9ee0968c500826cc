// The capability table of docs/capabilities.md is the catalog's, rendered: a status flipped in the
// data without `npm run docs:capabilities` fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TABLE_START, renderCapabilityTable, withCapabilityTable } from "../src/docs/capability-table";
import { DEFAULT_CATALOG_DIR, loadCatalog } from "../src/source";

const REPO_ROOT = join(__dirname, "../../..");

describe("the capability table of docs/capabilities.md", () => {
  it("matches the catalog (run `npm run docs:capabilities` after changing catalog data)", () => {
    const page = readFileSync(join(REPO_ROOT, "docs/capabilities.md"), "utf8");
    const table = renderCapabilityTable(loadCatalog(DEFAULT_CATALOG_DIR));
    expect(withCapabilityTable(page, table)).toBe(page);
  });

  it("is the only copy: the README links to it and holds none that could go stale", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(readme).not.toContain(TABLE_START);
    expect(readme).toContain("(docs/capabilities.md");
  });

  it("fails when the page's table differs from the catalog's", () => {
    const page = readFileSync(join(REPO_ROOT, "docs/capabilities.md"), "utf8");
    const table = renderCapabilityTable(loadCatalog(DEFAULT_CATALOG_DIR));
    const stale = page.replace("| `geo.time.current` | live |", "| `geo.time.current` | planned |");
    expect(stale).not.toBe(page);
    expect(withCapabilityTable(stale, table)).not.toBe(stale);
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
