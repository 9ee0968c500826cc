// Validates every rendered object against the OpenAPI schemas bundled in kubernetes-models (core
// kinds) and in the @kubernetes-models packages of the custom resources we ship (Prometheus
// Operator, cert-manager, Gateway API): types, enums, required fields; then rejects fields the
// API does not know. The model packages are ES modules, so they are imported before checking.
import { join } from "node:path";
import { subjectOf } from "./findings.mjs";
import { createStrictFieldChecker } from "./strict-fields.mjs";

/** The API groups our manifests use, by apiVersion: the module with one class per kind, and its package. */
const MODULES = {
  v1: ["kubernetes-models/v1", "kubernetes-models"],
  "apps/v1": ["kubernetes-models/apps/v1", "kubernetes-models"],
  "batch/v1": ["kubernetes-models/batch/v1", "kubernetes-models"],
  "networking.k8s.io/v1": ["kubernetes-models/networking.k8s.io/v1", "kubernetes-models"],
  "autoscaling/v2": ["kubernetes-models/autoscaling/v2", "kubernetes-models"],
  "policy/v1": ["kubernetes-models/policy/v1", "kubernetes-models"],
  "monitoring.coreos.com/v1": ["@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1", "@kubernetes-models/prometheus-operator"],
  "cert-manager.io/v1": ["@kubernetes-models/cert-manager/cert-manager.io/v1", "@kubernetes-models/cert-manager"],
  "gateway.networking.k8s.io/v1": ["@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1", "@kubernetes-models/gateway-api"],
};

/** Creates the checker over the model packages installed in `repoRoot`'s node_modules (this repo's). */
export async function createSchemaCheck(repoRoot) {
  const modules = new Map();
  for (const [apiVersion, [id]] of Object.entries(MODULES)) modules.set(apiVersion, await import(id));
  const stricts = new Map(
    [...new Set(Object.values(MODULES).map(([, pkg]) => pkg))].map((pkg) => [
      pkg,
      createStrictFieldChecker(join(repoRoot, "node_modules", pkg)),
    ]),
  );
  const strictFor = (apiVersion) => stricts.get(MODULES[apiVersion]?.[1]);

  /** Checks one document; reports into `findings`. */
  return function checkSchema(doc, findings) {
    const subject = subjectOf(doc);
    const Model = modules.get(doc.apiVersion)?.[doc.kind];
    if (typeof Model !== "function") {
      findings.error(subject, `no schema for ${doc.apiVersion} ${doc.kind} (supported apiVersions: ${Object.keys(MODULES).join(", ")})`);
      return;
    }
    try {
      new Model(forSchema(doc)).validate();
    } catch (err) {
      const problems = Array.isArray(err.errors) ? err.errors.map((e) => `${e.instancePath || "/"} ${e.message}`) : [err.message];
      for (const problem of problems) findings.error(subject, `schema: ${problem}`);
    }
    const strict = strictFor(doc.apiVersion);
    if (strict?.knows(doc.apiVersion, doc.kind)) {
      for (const path of strict.unknownFields(doc)) findings.error(subject, `unknown field ${path}`);
    }
  };
}

/**
 * kustomize folds long base64 Secret values over several lines; the API server's decoder skips
 * the line breaks, but the schema's `byte` format does not, so they are removed before validating.
 */
function forSchema(doc) {
  if (doc.kind !== "Secret" || !doc.data) return doc;
  const data = Object.fromEntries(Object.entries(doc.data).map(([k, v]) => [k, typeof v === "string" ? v.replace(/\s+/g, "") : v]));
  return { ...doc, data };
}
