// scripts/compile-catalog.js, the catalog's build step, run as the build runs it: it stores the compiled
// catalog, keeps one compiled from the same YAML, compiles a damaged one again and still succeeds (the
// build did its job), and fails only when the artifact cannot be stored.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CATALOG_DIR } from "../src/source";

const SCRIPT = join(__dirname, "../scripts/compile-catalog.js");
const compile = (out: string) => spawnSync(process.execPath, [SCRIPT, DEFAULT_CATALOG_DIR, "--out", out], { encoding: "utf8" });

describe("compile-catalog.js", () => {
  let work: string;
  beforeEach(() => (work = mkdtempSync(join(tmpdir(), "compile-script-"))));
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it("stores the artifact, keeps it on a second run, and compiles a damaged one again with exit 0", () => {
    const first = compile(work);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/: compiled in /);
    const [artifact] = readdirSync(work).filter((f) => f.endsWith(".catalog"));
    expect(artifact).toBeDefined();

    const again = compile(work);
    expect([again.status, again.stdout]).toEqual([0, expect.stringMatching(/already compiled/)]);

    writeFileSync(join(work, artifact!), "damaged");
    const repaired = compile(work);
    expect(repaired.status).toBe(0);
    expect(repaired.stderr).toContain("compiled artifact not served");
    expect(repaired.stdout).toMatch(/: compiled in /);
    expect(compile(work).stdout).toMatch(/already compiled/);
  });

  it("exits 1 when the artifact cannot be stored", () => {
    // A folder under a file cannot be made, whoever runs the build.
    writeFileSync(join(work, "a-file"), "");
    const failed = compile(join(work, "a-file", "compiled"));
    expect([failed.status, failed.stderr]).toEqual([1, expect.stringContaining("not stored")]);
  });
});
