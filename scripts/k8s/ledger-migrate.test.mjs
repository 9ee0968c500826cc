// The MongoDB migrations' Job in the production overlay (base/ledger/migrate-job.yaml): it runs the
// migration entry point of the very image the ledger Deployment rolls out, on the ledger's database
// (the same Secret and ConfigMap), hardened like every other pod, allowed by the NetworkPolicies to
// reach MongoDB and nothing else outside, and marked to run before a sync. Then the order a rollout
// follows is the one docs/mongodb-runbook.md gives.
// Run: node --test scripts/k8s/*.test.mjs
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Findings } from "./lib/findings.mjs";
import { checkDependencyReach } from "./lib/network-reach.mjs";
import { kustomize, parseDocuments } from "./lib/render.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { docs } = parseDocuments(kustomize(join(REPO_ROOT, "deploy/k8s/overlays/prod")));
const job = docs.find((d) => d.kind === "Job" && d.metadata.name === "ledger-migrate");
const ledger = docs.find((d) => d.kind === "Deployment" && d.metadata.name === "ledger");

describe("Job ledger-migrate in overlays/prod", () => {
  const pod = job?.spec.template.spec;
  const migrate = pod?.containers[0];
  const server = ledger.spec.template.spec.containers[0];

  test("runs the compiled migration entry point of the ledger's own image", () => {
    assert.ok(job, "Job ledger-migrate renders");
    assert.equal(migrate.image, server.image);
    assert.doesNotMatch(migrate.image, /:(dev|latest)$|^agentic\//, "a pinned registry image, as the ledger's");
    assert.deepEqual(migrate.command, ["node", "services/ledger/dist/migrate.js"]);
    assert.ok(existsSync(join(REPO_ROOT, "services/ledger/src/migrate.ts")), "its source");
  });

  test("on the ledger's database: the same Secret key for MONGODB_URI and the same ledger ConfigMap", () => {
    const secretOf = (c) => c.env.find((e) => e.name === "MONGODB_URI")?.valueFrom?.secretKeyRef;
    assert.deepEqual(secretOf(migrate), secretOf(server));
    const ledgerConfig = server.envFrom.map((e) => e.configMapRef?.name).find((n) => n?.startsWith("ledger-config"));
    assert.ok(ledgerConfig);
    assert.ok(migrate.envFrom.some((e) => e.configMapRef?.name === ledgerConfig));
  });

  test("hardened like every pod: non-root, read-only root, no privilege, no token; bounded in time and retries", () => {
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.equal(pod.securityContext.seccompProfile.type, "RuntimeDefault");
    assert.equal(pod.automountServiceAccountToken, false);
    assert.deepEqual(migrate.securityContext, server.securityContext);
    assert.ok(migrate.resources.requests && migrate.resources.limits.memory);
    assert.equal(pod.restartPolicy, "Never");
    assert.ok(job.spec.backoffLimit >= 1 && job.spec.backoffLimit <= 5);
    assert.ok(job.spec.activeDeadlineSeconds > 0);
    assert.ok(job.spec.ttlSecondsAfterFinished > 0, "removed after a while, so the next apply creates it again");
  });

  test("the NetworkPolicies let it reach MongoDB (outside the cluster, 27017)", () => {
    const findings = new Findings("prod");
    checkDependencyReach(docs, findings, { configs: new Map(), unseen: new Map() });
    assert.deepEqual(
      findings.items.filter((f) => f.subject.includes("ledger-migrate")),
      [],
    );
    const mongoEgress = docs.find((d) => d.kind === "NetworkPolicy" && d.metadata.name === "allow-egress-ledger-mongodb");
    const selected = mongoEgress.spec.podSelector.matchExpressions.find((e) => e.key === "app.kubernetes.io/name").values;
    assert.ok(selected.includes(job.spec.template.metadata.labels["app.kubernetes.io/name"]));
  });

  test("applied first together with what it reads: label agentic.dev/rollout-step=migrate", () => {
    const step = (d) => d.metadata.labels?.["agentic.dev/rollout-step"];
    assert.equal(step(job), "migrate");
    for (const { configMapRef } of migrate.envFrom) {
      assert.equal(step(docs.find((d) => d.kind === "ConfigMap" && d.metadata.name === configMapRef.name)), "migrate", configMapRef.name);
    }
    assert.equal(step(docs.find((d) => d.metadata.name === "allow-egress-ledger-mongodb")), "migrate");
    // Nothing that rolls: the Deployments change only in the second apply.
    assert.deepEqual(
      docs
        .filter((d) => step(d) === "migrate")
        .map((d) => d.kind)
        .sort(),
      ["ConfigMap", "Job", "NetworkPolicy"],
    );
  });

  test("runs before an Argo CD sync, replacing the last one; the runbook gives the order by hand", () => {
    assert.equal(job.metadata.annotations["argocd.argoproj.io/hook"], "PreSync");
    assert.equal(job.metadata.annotations["argocd.argoproj.io/hook-delete-policy"], "BeforeHookCreation");
    const runbook = readFileSync(join(REPO_ROOT, "docs/mongodb-runbook.md"), "utf8");
    const order = [
      "kubectl -n agentic delete job ledger-migrate --ignore-not-found",
      "kubectl apply -f /tmp/agentic.yaml -l agentic.dev/rollout-step=migrate",
      "kubectl -n agentic wait --for=condition=complete job/ledger-migrate",
      "kubectl apply -f /tmp/agentic.yaml\n",
    ].map((step) => runbook.indexOf(step));
    assert.ok(
      order.every((at) => at >= 0),
      `every step in docs/mongodb-runbook.md: ${order}`,
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      "in this order",
    );
  });
});
