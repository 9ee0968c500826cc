#!/usr/bin/env node
// Offline validation of the Kubernetes manifests: renders each overlay with `kubectl kustomize`,
// validates every object against the Kubernetes schemas (kubernetes-models, and the
// @kubernetes-models packages of the Prometheus Operator, cert-manager and Gateway API kinds)
// including unknown fields, applies the house policies, checks each service's environment against
// its config schema, the references between kinds (edge, monitoring, stream settings), and what
// production trusts and reaches: every configured dependency allowed by the NetworkPolicies, the
// streams and buckets within JetStream's storage, the proxy hops in front of the gateway, no
// development key in a production trust list.
// Exits 1 on any error, 2 when it cannot run (no kubectl, bad arguments).
//
//   node scripts/k8s/validate.mjs                      # deploy/k8s/overlays/{dev,prod}
//   node scripts/k8s/validate.mjs path/to/overlay ...  # other overlays
//   options: --root <dir>  repo root holding the services' dist/config.js (default: this repo)
//            --kubectl <bin>  kubectl to run (default: kubectl on PATH)
import { basename, dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { collectSecretExamples, checkEnvContracts } from "./lib/env-contract.mjs";
import { Findings, subjectOf } from "./lib/findings.mjs";
import { checkCrossReferences } from "./lib/cross-checks.mjs";
import { checkJetStreamBudget } from "./lib/jetstream-budget.mjs";
import { checkStreamSizing } from "./lib/stream-sizing.mjs";
import { checkExecutorAutoscaler } from "./lib/autoscaling.mjs";
import { checkDependencyReach } from "./lib/network-reach.mjs";
import { checkPolicies } from "./lib/policy-check.mjs";
import { checkProductionTrust } from "./lib/production-trust.mjs";
import { KubectlMissingError, kustomize, parseDocuments } from "./lib/render.mjs";
import { createSchemaCheck } from "./lib/schema-check.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DEFAULT_OVERLAYS = ["deploy/k8s/overlays/dev", "deploy/k8s/overlays/prod"];

async function main() {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: { root: { type: "string" }, kubectl: { type: "string" } },
    });
  } catch (err) {
    console.error(`k8s validate: ${err.message}`);
    return 2;
  }
  const repoRoot = resolve(args.values.root ?? REPO_ROOT);
  const overlays = (args.positionals.length > 0 ? args.positionals : DEFAULT_OVERLAYS.map((o) => resolve(REPO_ROOT, o))).map((o) =>
    resolve(o),
  );

  // Render everything first: Secret examples of one overlay (dev) inform checks of another (prod).
  const rendered = [];
  for (const dir of overlays) {
    const name = displayName(dir);
    const findings = new Findings(name);
    let docs = [];
    try {
      const { docs: parsed, errors } = parseDocuments(kustomize(dir, args.values.kubectl));
      docs = parsed;
      for (const e of errors) findings.error(name, `YAML: ${e}`);
    } catch (err) {
      if (err instanceof KubectlMissingError) {
        console.error(`k8s validate: ${err.message}`);
        return 2;
      }
      findings.error(name, err.message);
    }
    rendered.push({ dir, name, docs, findings });
  }

  const checkSchema = await createSchemaCheck(REPO_ROOT);
  const secretExamples = collectSecretExamples(rendered.map((r) => r.docs));
  for (const { dir, docs, findings } of rendered) {
    for (const doc of docs) {
      if (!doc.kind || !doc.apiVersion || !doc.metadata?.name) {
        findings.error(subjectOf(doc), "apiVersion, kind and metadata.name are required");
        continue;
      }
      checkSchema(doc, findings);
    }
    checkPolicies(docs, findings, { pinnedImages: basename(dir).startsWith("prod") });
    const unseen = new Map();
    const configs = checkEnvContracts(docs, findings, { repoRoot, secretExamples, unseen });
    checkCrossReferences(docs, findings, { repoRoot: REPO_ROOT, configs }); // runbooks are this repo's
    checkDependencyReach(docs, findings, { configs, unseen });
    checkJetStreamBudget(docs, findings, { repoRoot, configs });
    checkStreamSizing(docs, findings, { configs });
    checkExecutorAutoscaler(docs, findings);
    checkProductionTrust(docs, findings, { repoRoot: REPO_ROOT, configs }); // the dev keys are this repo's
  }

  let errors = 0;
  for (const { name, docs, findings } of rendered) {
    console.log(`k8s validate: ${name}: ${docs.length} objects`);
    for (const line of findings.format()) console.log(line);
    errors += findings.count("error");
  }
  const summary = rendered.map(
    ({ name, findings }) =>
      `${name}: ${findings.count("error")} errors, ${findings.count("warning")} warnings, ${findings.count("skip")} skipped`,
  );
  console.log(`k8s validate: ${errors > 0 ? "FAILED" : "OK"} (${summary.join("; ")})`);
  return errors > 0 ? 1 : 0;
}

/** `deploy/k8s/overlays/dev` inside the repo, the absolute path elsewhere. */
function displayName(dir) {
  const rel = relative(REPO_ROOT, dir);
  return rel.startsWith("..") ? dir : rel;
}

process.exitCode = await main();
