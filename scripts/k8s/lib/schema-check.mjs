// Validates every rendered object against the Kubernetes OpenAPI schemas bundled in
// kubernetes-models (types, enums, required fields), then rejects fields the API does not know.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { subjectOf } from "./findings.mjs";
import { createStrictFieldChecker } from "./strict-fields.mjs";

/** The API groups our manifests use, by apiVersion (each module exports one class per kind). */
const MODULES = {
  v1: "kubernetes-models/v1",
  "apps/v1": "kubernetes-models/apps/v1",
  "batch/v1": "kubernetes-models/batch/v1",
  "networking.k8s.io/v1": "kubernetes-models/networking.k8s.io/v1",
  "autoscaling/v2": "kubernetes-models/autoscaling/v2",
  "policy/v1": "kubernetes-models/policy/v1",
};

/** Creates the checker, resolving kubernetes-models from `repoRoot`. */
export function createSchemaCheck(repoRoot) {
  const require = createRequire(`${repoRoot}/package.json`);
  const modelsDir = dirname(require.resolve("kubernetes-models/package.json"));
  const strict = createStrictFieldChecker(modelsDir);
  const modules = new Map();

  function classFor(apiVersion, kind) {
    const id = MODULES[apiVersion];
    if (!id) return undefined;
    if (!modules.has(id)) modules.set(id, require(id));
    return modules.get(id)[kind];
  }

  /** Checks one document; reports into `findings`. */
  return function checkSchema(doc, findings) {
    const subject = subjectOf(doc);
    const Model = classFor(doc.apiVersion, doc.kind);
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
    if (strict.knows(doc.apiVersion, doc.kind)) {
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
