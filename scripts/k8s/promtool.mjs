#!/usr/bin/env node
// Checks and unit-tests the alerting rules with promtool (Debian's `prometheus` package). The rules
// live in PrometheusRule objects (deploy/k8s/components/monitoring/rules/), which promtool cannot
// read: each one's spec is written to <tmp>/<metadata.name>.rules.yaml, the unit tests
// (monitoring/rule-tests/*.test.yaml, which name those files) are copied beside them, then
// `promtool check rules` and `promtool test rules` run. Exits 1 on any failure, 2 without promtool.
//
//   node scripts/k8s/promtool.mjs                 # npm run k8s:rules
//   options: --promtool <bin>  promtool to run (default: promtool on PATH)
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import YAML from "yaml";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const MONITORING_DIR = join(REPO_ROOT, "deploy/k8s/components/monitoring");

/** The PrometheusRule objects of the monitoring component, parsed, with the file each came from. */
export function loadPrometheusRules(dir = MONITORING_DIR) {
  const rulesDir = join(dir, "rules");
  return readdirSync(rulesDir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .flatMap((file) =>
      YAML.parseAllDocuments(readFileSync(join(rulesDir, file), "utf8"))
        .map((d) => d.toJS())
        .filter((d) => d?.kind === "PrometheusRule")
        .map((rule) => ({ file: join("rules", file), rule })),
    );
}

/** The promtool unit-test files of the monitoring component. */
export function ruleTestFiles(dir = MONITORING_DIR) {
  const testsDir = join(dir, "rule-tests");
  return readdirSync(testsDir)
    .filter((f) => f.endsWith(".test.yaml"))
    .sort()
    .map((f) => join(testsDir, f));
}

/** Writes the rules as promtool reads them, and the tests beside them; returns the paths. */
export function stageRules(dir = MONITORING_DIR) {
  const out = mkdtempSync(join(tmpdir(), "agentic-rules-"));
  const ruleFiles = loadPrometheusRules(dir).map(({ rule }) => {
    const path = join(out, `${rule.metadata.name}.rules.yaml`);
    writeFileSync(path, YAML.stringify(rule.spec));
    return path;
  });
  const testFiles = ruleTestFiles(dir).map((src) => {
    const path = join(out, src.split("/").at(-1));
    copyFileSync(src, path);
    return path;
  });
  return { dir: out, ruleFiles, testFiles };
}

function main() {
  const { values } = parseArgs({ options: { promtool: { type: "string", default: "promtool" } } });
  const probe = spawnSync(values.promtool, ["--version"], { encoding: "utf8" });
  if (probe.error) {
    console.error(
      `k8s rules: ${values.promtool} not found: install Debian's prometheus package ` +
        "(apt-get install -y --no-install-recommends prometheus), which ships promtool",
    );
    return 2;
  }
  console.log(`k8s rules: ${probe.stdout.split("\n")[0]}`);
  const staged = stageRules();
  try {
    for (const args of [
      ["check", "rules", ...staged.ruleFiles],
      ["test", "rules", ...staged.testFiles],
    ]) {
      try {
        process.stdout.write(execFileSync(values.promtool, args, { cwd: staged.dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
      } catch (err) {
        process.stdout.write(String(err.stdout ?? ""));
        process.stderr.write(String(err.stderr ?? err.message));
        console.error(`k8s rules: promtool ${args.slice(0, 2).join(" ")} FAILED`);
        return 1;
      }
    }
  } finally {
    rmSync(staged.dir, { recursive: true, force: true });
  }
  console.log(`k8s rules: OK (${staged.ruleFiles.length} rule files, ${staged.testFiles.length} test files)`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
