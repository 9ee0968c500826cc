// docs/production-checklist.md stays true to the production overlay: every Secret (and key) the
// overlay reads is in its table, every prerequisite of the manifests has a row with a check, and the
// prometheus-adapter values serve the metric the executor's autoscaler scales on, which the executor
// declares. Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { kustomize, parseDocuments } from "./lib/render.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const checklist = readFileSync(join(REPO_ROOT, "docs/production-checklist.md"), "utf8");
const { docs } = parseDocuments(kustomize(join(REPO_ROOT, "deploy/k8s/overlays/prod")));

/** Secret name -> keys the overlay's pods read from it (empty: read whole, envFrom). */
function secretsRead() {
  const secrets = new Map();
  const use = (name, key) => {
    if (!secrets.has(name)) secrets.set(name, new Set());
    if (key) secrets.get(name).add(key);
  };
  for (const doc of docs) {
    const pod = doc.spec?.template?.spec ?? doc.spec?.jobTemplate?.spec?.template?.spec;
    if (!pod) continue;
    for (const c of [...(pod.containers ?? []), ...(pod.initContainers ?? [])]) {
      for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) use(e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key);
      for (const e of c.envFrom ?? []) if (e.secretRef) use(e.secretRef.name);
    }
    for (const v of pod.volumes ?? []) if (v.secret) use(v.secret.secretName);
  }
  return secrets;
}

test("every Secret the production overlay reads, with its keys, is in the checklist", () => {
  const rendered = new Set(docs.filter((d) => d.kind === "Secret").map((d) => d.metadata.name));
  const rows = checklist.split("\n").filter((l) => l.startsWith("| `"));
  for (const [name, keys] of secretsRead()) {
    if (rendered.has(name)) continue;
    const row = rows.find((r) => r.includes(`\`${name}\``));
    assert.ok(row, `Secret ${name} has no row`);
    for (const key of keys) assert.ok(row.includes(`\`${key}\``), `Secret ${name}: key ${key} missing from its row`);
  }
});

test("each prerequisite of the manifests has a row and a check", () => {
  for (const prerequisite of [
    "Redis",
    "MongoDB",
    "Prometheus operator",
    "retention",
    "cert-manager",
    "Gateway API",
    "metrics-server",
    "prometheus-adapter",
    "StorageClass",
    "zone",
  ]) {
    const row = checklist.split("\n").find((l) => /^\| \d+ \|/.test(l) && l.includes(prerequisite));
    assert.ok(row, `no row for ${prerequisite}`);
    assert.match(row.split(/(?<!\\)\|/).at(-2), /`[^`]+`/, `${prerequisite}: the row's check has a command`);
  }
});

test("prometheus-adapter serves the Pods metric the executor scales on, and the executor declares it", () => {
  const hpa = docs.find((d) => d.kind === "HorizontalPodAutoscaler" && d.metadata.name === "executor");
  const metric = hpa.spec.metrics.find((m) => m.type === "Pods").pods.metric.name;
  const values = YAML.parse(readFileSync(join(REPO_ROOT, "deploy/k8s/prerequisites/prometheus-adapter-values.yaml"), "utf8"));
  const rule = values.rules.custom.find((r) => r.name.as === metric);
  assert.ok(rule, `no adapter rule names ${metric}`);
  assert.match(rule.seriesQuery, new RegExp(`^${metric}\\{`));
  assert.deepEqual(rule.resources.overrides.pod, { resource: "pod" });
  assert.match(readFileSync(join(REPO_ROOT, "services/executor/src/metrics.ts"), "utf8"), new RegExp(`name: "${metric}"`));
  assert.ok(checklist.includes(metric));
});

test("the stream-sizing formula in the checklist is the one k8s:validate applies", async () => {
  const { BYTES_PER_EXECUTE, FILL_AT_PEAK, PEAK_ANNOTATION, requiredStreamBytes } = await import("./lib/stream-sizing.mjs");
  assert.ok(checklist.includes(PEAK_ANNOTATION));
  assert.ok(checklist.includes(`${BYTES_PER_EXECUTE.toLocaleString("en")} bytes / ${FILL_AT_PEAK}`));
  // The worked example of the prod overlay: 12 x 20/s for an hour.
  assert.equal(requiredStreamBytes({ keepMs: 3_600_000, peakPerSecond: 240 }), 3_715_200_000);
  assert.ok(checklist.includes("3.7 GB"));
});
