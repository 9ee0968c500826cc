// Every relative link of the README, of docs/ and of every part's README leads to a file of this
// repository, and a link to a heading (`page.md#heading`) to a heading that exists: pages move and
// get renamed, and a newcomer's first click should not be a 404.
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { brokenLinks, headingAnchor, linksOf, testFilesNamedByInvariants } from "./support/markdown-links";
import { REPO_ROOT } from "./support/system";

/** Folders that hold no page of ours (dependencies, builds, test output, local state). */
const NOT_OURS = new Set(["node_modules", "dist", ".git", ".turbo", ".data", "coverage", "test-output"]);

function markdownPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_OURS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownPages(path);
    return entry.name.endsWith(".md") ? [relative(REPO_ROOT, path)] : [];
  });
}

const pages = markdownPages(REPO_ROOT);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_OURS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.(ts|mjs)$/.test(entry.name) ? [relative(REPO_ROOT, path)] : [];
  });
}

/** Every README that ends with its invariants: each service's, the gateway's and each package's. */
const READMES_WITH_INVARIANTS = [
  "gateway/README.md",
  "services/catalog/README.md",
  "services/router/README.md",
  "services/executor/README.md",
  "services/ledger/README.md",
  "packages/intent/README.md",
  "packages/mcp/README.md",
  "packages/sdk/README.md",
  "console/README.md",
  "sandbox/README.md",
];

describe("links in the documentation", () => {
  it("covers the README, every page of docs/ and every service's README", () => {
    for (const page of [
      "README.md",
      "docs/architecture.md",
      "docs/capabilities.md",
      "docs/configuration.md",
      "gateway/README.md",
      "services/ledger/README.md",
    ]) {
      expect(pages).toContain(page);
    }
  });

  it.each(pages)("%s: every relative link leads to a file, and every #heading to a heading", (page) => {
    expect(brokenLinks(REPO_ROOT, page)).toEqual([]);
  });

  it("the README is an entry page: short, with the architecture linked on its first screen", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(180);
    const firstScreen = readme.split("\n").slice(0, 30).join("\n");
    expect(linksOf(firstScreen).map((l) => l.target)).toContain("docs/architecture.md");
  });
});

describe("every part's README", () => {
  const allTests = testFiles(REPO_ROOT);

  it.each(READMES_WITH_INVARIANTS)("%s ends with where things go, then its invariants", (page) => {
    const headings = readFileSync(join(REPO_ROOT, page), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("## "));
    expect(headings.slice(-2)).toEqual(["## Where things go", "## Invariants, and the tests that prove them"]);
  });

  it.each(READMES_WITH_INVARIANTS)("%s: every test its invariants name exists", (page) => {
    const named = testFilesNamedByInvariants(readFileSync(join(REPO_ROOT, page), "utf8"));
    expect(named.length).toBeGreaterThan(0);
    const missing = named.filter((name) => !allTests.some((path) => path === name || path.endsWith(`/${name}`)));
    expect(missing).toEqual([]);
  });
});

describe("the link check itself", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "markdown-links-"));
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs/there.md"), "# There\n\n## Money in: an operator's grant\n");
    writeFileSync(
      join(root, "README.md"),
      [
        "[ok](docs/there.md) [ok](docs/there.md#money-in-an-operators-grant) ![ok](docs/there.md) [web](https://example.com/x)",
        "[gone](docs/gone.md) and [no heading](docs/there.md#nowhere)",
        "`[in code](docs/code.md)`",
        "```",
        "[in a block](docs/block.md)",
        "```",
      ].join("\n"),
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reports a missing file and a missing heading, and nothing in code or on the web", () => {
    expect(brokenLinks(root, "README.md")).toEqual([
      "README.md:2 → docs/gone.md: no file docs/gone.md",
      "README.md:2 → docs/there.md#nowhere: no heading #nowhere in docs/there.md",
    ]);
  });

  it("makes GitHub's anchors", () => {
    expect(headingAnchor("What `npm start` does")).toBe("what-npm-start-does");
    expect(headingAnchor("Spend policies: what a key, or one of its agents, may spend")).toBe(
      "spend-policies-what-a-key-or-one-of-its-agents-may-spend",
    );
  });
});
