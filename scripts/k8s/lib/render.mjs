// Renders a kustomize overlay with `kubectl kustomize` (offline) and parses every YAML document.
import { execFileSync } from "node:child_process";
import YAML from "yaml";

/** One line, printed when kubectl is missing: how to get the version this repo is checked with. */
export const KUBECTL_MISSING =
  "kubectl not found on PATH: install kubectl v1.32.x (bundles kustomize v5.5; checked with v1.32.4), " +
  "e.g. `apt-get install kubectl` from https://pkgs.k8s.io or https://kubernetes.io/docs/tasks/tools/";

/** Thrown when kubectl is not installed; `message` is KUBECTL_MISSING. */
export class KubectlMissingError extends Error {
  constructor() {
    super(KUBECTL_MISSING);
    this.name = "KubectlMissingError";
  }
}

/**
 * Runs `kubectl kustomize <dir>` and returns the rendered YAML text.
 * Throws KubectlMissingError without kubectl, or an Error carrying kustomize's stderr.
 */
export function kustomize(dir, kubectl = "kubectl") {
  try {
    return execFileSync(kubectl, ["kustomize", dir], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    if (err.code === "ENOENT") throw new KubectlMissingError();
    const stderr = String(err.stderr ?? "").trim();
    throw new Error(`kubectl kustomize ${dir} failed: ${stderr || err.message}`);
  }
}

/** Parses a multi-document YAML stream; returns the non-empty documents and any parse errors. */
export function parseDocuments(text) {
  const docs = [];
  const errors = [];
  // Hex stays text: kustomize writes an address such as 0x2Fe5...D5f5 (TOP_UP_PAY_TO) unquoted, which Go's
  // YAML (kubectl) reads as the string it is, and YAML 1.2's core schema would read as a number.
  for (const doc of YAML.parseAllDocuments(text, { customTags: (tags) => tags.filter((tag) => tag.format !== "HEX") })) {
    if (doc.errors.length > 0) {
      errors.push(...doc.errors.map((e) => e.message));
      continue;
    }
    const value = doc.toJS();
    if (value !== null && value !== undefined) docs.push(value);
  }
  return { docs, errors };
}
