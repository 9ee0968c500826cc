// A rollout never cuts an execution: on every overlay, the executor's grace period holds its preStop
// sleep and its SHUTDOWN_DEADLINE_MS (itself above the execution budget and its settlement), the
// gateway's execute deadline exceeds the executor's longest answer, and the gateway's grace period
// holds its stop. The values are read from the rendered manifests, parsed by each service's own
// config schema and derived by its own config.js (build first). Broken variants must fail.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkEnvContracts, collectSecretExamples } from "./lib/env-contract.mjs";
import { Findings } from "./lib/findings.mjs";
import { kustomize, parseDocuments } from "./lib/render.mjs";
import { compiledConfig, graceMs, preStopSleepMs, shutdownTimingProblems } from "./lib/shutdown-timing.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const OVERLAYS = ["deploy/k8s/overlays/dev", "deploy/k8s/overlays/prod"].map((o) => join(REPO_ROOT, o));
const derive = { executor: compiledConfig(REPO_ROOT, "services/executor"), gateway: compiledConfig(REPO_ROOT, "gateway") };

const scratch = mkdtempSync(join(tmpdir(), "k8s-shutdown-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const render = (dir) => {
  const { docs, errors } = parseDocuments(kustomize(dir));
  assert.deepEqual(errors, []);
  return docs;
};
// Secrets that live only in the cluster are read with the shape of the development examples.
const secretExamples = collectSecretExamples(OVERLAYS.map(render));
const configsOf = (docs) => checkEnvContracts(docs, new Findings("shutdown timing"), { repoRoot: REPO_ROOT, secretExamples });

let variants = 0;
/** An overlay of dev with `patches` (strategic merge, YAML text) and ConfigMap `literals` merged in. */
function variant({ patches = [], literals = {} }) {
  const dir = join(scratch, `variant-${++variants}`);
  mkdirSync(dir, { recursive: true });
  const lines = ["apiVersion: kustomize.config.k8s.io/v1beta1", "kind: Kustomization", "resources:", `  - ${relative(dir, OVERLAYS[0])}`];
  if (patches.length > 0) lines.push("patches:", ...patches.map((p) => `  - patch: ${JSON.stringify(p)}`));
  const maps = Object.entries(literals);
  if (maps.length > 0) {
    lines.push("configMapGenerator:");
    for (const [name, values] of maps) {
      lines.push(
        `  - name: ${name}`,
        "    behavior: merge",
        "    literals:",
        ...Object.entries(values).map(([k, v]) => `      - ${k}=${v}`),
      );
    }
  }
  writeFileSync(join(dir, "kustomization.yaml"), `${lines.join("\n")}\n`);
  return dir;
}
const grace = (name, seconds) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      terminationGracePeriodSeconds: ${seconds}\n`;

describe("shutdown timings of the real overlays", () => {
  for (const overlay of OVERLAYS) {
    test(`${relative(REPO_ROOT, overlay)}: grace periods and deadlines hold every execution in flight`, () => {
      const docs = render(overlay);
      const configs = configsOf(docs);
      const executor = configs.get("executor");
      const gateway = configs.get("gateway");
      assert.ok(executor && gateway, "both the executor's and the gateway's settings are read from the manifests");
      const executorDeployment = docs.find((d) => d.kind === "Deployment" && d.metadata.name === "executor");
      // The inequality, spelled out with the values of this overlay.
      assert.ok(preStopSleepMs(executorDeployment) > 0, "the executor has a preStop sleep");
      assert.ok(
        graceMs(executorDeployment) >= preStopSleepMs(executorDeployment) + executor.SHUTDOWN_DEADLINE_MS,
        `grace ${graceMs(executorDeployment)} ms >= preStop ${preStopSleepMs(executorDeployment)} ms + SHUTDOWN_DEADLINE_MS ${executor.SHUTDOWN_DEADLINE_MS} ms`,
      );
      assert.ok(executor.SHUTDOWN_DEADLINE_MS >= executor.EXECUTION_BUDGET_MS + executor.SETTLEMENT_PUBLISH_TIMEOUT_MS);
      assert.deepEqual(shutdownTimingProblems(docs, configs, derive), []);
    });
  }
});

describe("broken variants are caught", () => {
  test("an executor grace period that does not hold its shutdown deadline", () => {
    const docs = render(variant({ patches: [grace("executor", 40)] }));
    assert.match(
      shutdownTimingProblems(docs, configsOf(docs), derive).join("\n"),
      /executor terminationGracePeriodSeconds 40 s is below preStop sleep \+ SHUTDOWN_DEADLINE_MS = 95 s/,
    );
  });

  test("the validator (npm run k8s:validate) fails on it too", () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, "scripts/k8s/validate.mjs"), variant({ patches: [grace("executor", 40)] })], {
      encoding: "utf8",
    });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /ERROR Deployment\/executor: executor terminationGracePeriodSeconds 40 s is below/);
  });

  test("a longer execution budget without a longer shutdown deadline", () => {
    const docs = render(variant({ literals: { "executor-config": { EXECUTION_BUDGET_MS: 120000 } } }));
    const problems = shutdownTimingProblems(docs, configsOf(docs), derive).join("\n");
    assert.match(problems, /executor SHUTDOWN_DEADLINE_MS 90000 ms is below 149000 ms/);
    assert.match(problems, /gateway EXECUTE_DEADLINE_MS 90000 ms must exceed the executor's longest answer, 137000 ms/);
  });

  test("a gateway execute deadline below the executor's longest answer, and a grace period below the gateway's stop", () => {
    const docs = render(variant({ patches: [grace("gateway", 40)], literals: { "gateway-config": { EXECUTE_DEADLINE_MS: 60000 } } }));
    const problems = shutdownTimingProblems(docs, configsOf(docs), derive).join("\n");
    assert.match(problems, /gateway EXECUTE_DEADLINE_MS 60000 ms must exceed the executor's longest answer, 77000 ms/);
    assert.match(problems, /gateway terminationGracePeriodSeconds 40 s is below preStop sleep \+ EXECUTE_DEADLINE_MS \+ 10 s = 75 s/);
  });
});
