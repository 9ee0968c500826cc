// Finds fields the Kubernetes API does not know (`readinesProbe`, `spec.replica`), which the
// kubernetes-models validator lets through (its schemas allow additional properties). The field
// lists come from the TypeScript declarations bundled with kubernetes-models: every object type
// is an `export interface` whose properties are written `"name"?: Type;`, and object-typed
// properties import their type from a sibling file, which is followed recursively.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * @typedef {{ ref: string | null, array: boolean }} Prop   ref: declaration file of an object type
 * @typedef {{ props: Map<string, Prop> }} TypeInfo
 */

/** Builds a checker over the declarations of the kubernetes-models package at `modelsDir`. */
export function createStrictFieldChecker(modelsDir) {
  /** @type {Map<string, TypeInfo | null>} */
  const cache = new Map();

  function load(file) {
    if (!cache.has(file)) cache.set(file, existsSync(file) ? parseDeclaration(file) : null);
    return cache.get(file);
  }

  function walk(value, file, path, out) {
    const type = load(file);
    if (!type || value === null || typeof value !== "object" || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const prop = type.props.get(key);
      if (!prop) {
        out.push(path ? `${path}.${key}` : key);
        continue;
      }
      if (!prop.ref) continue;
      if (prop.array && Array.isArray(child))
        child.forEach((item, i) => walk(item, prop.ref, `${path ? `${path}.` : ""}${key}[${i}]`, out));
      else if (!prop.array) walk(child, prop.ref, path ? `${path}.${key}` : key, out);
    }
  }

  return {
    /** True when declarations exist for this apiVersion/kind. */
    knows(apiVersion, kind) {
      return load(rootFile(modelsDir, apiVersion, kind)) !== null;
    },
    /** Dotted paths of every field of `doc` that its kind does not declare. */
    unknownFields(doc) {
      const out = [];
      walk(doc, rootFile(modelsDir, doc.apiVersion, doc.kind), "", out);
      return out;
    },
  };
}

/** `apps/v1` + `Deployment` → <modelsDir>/apps/v1/Deployment.d.ts; `v1` + `Service` → <modelsDir>/v1/Service.d.ts. */
function rootFile(modelsDir, apiVersion, kind) {
  return join(modelsDir, String(apiVersion), `${kind}.d.ts`);
}

/**
 * Reads the one interface a kubernetes-models declaration file exports, with the properties of the
 * interfaces it extends (the custom-resource models build specs that way, e.g. HTTPRouteSpec
 * extends CommonRouteSpec). Doc comments go first: their examples may hold a lone `}`.
 */
function parseDeclaration(file, seen = new Set()) {
  const src = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  const head = /^export interface I\w+(?: extends ([\w, ]+))? \{$/m.exec(src);
  if (!head) return null; // aliases such as IntOrString or Quantity: a leaf value
  const rest = src.slice(head.index);
  const body = rest.slice(0, rest.search(/^\}$/m));

  const imports = new Map();
  for (const m of src.matchAll(/^import \{ ([^}]+) \} from "([^"]+)";$/gm)) {
    for (const name of m[1].split(",").map((s) => s.trim())) imports.set(name, resolveDeclaration(file, m[2]));
  }

  /** @type {Map<string, Prop>} */
  const props = new Map();
  seen.add(file);
  for (const parent of (head[1] ?? "").split(",").map((s) => s.trim())) {
    const parentFile = imports.get(parent);
    if (!parentFile || seen.has(parentFile) || !existsSync(parentFile)) continue; // TypeMeta: apiVersion and kind are redeclared
    for (const [name, prop] of parseDeclaration(parentFile, seen)?.props ?? []) props.set(name, prop);
  }
  for (const m of body.matchAll(/^ {4}"([^"]+)"\??: (.+)$/gm)) {
    let type = m[2].replace(/;$/, "").trim();
    let array = false;
    const arrayOf = /^Array<(.+)>$/.exec(type);
    if (arrayOf) {
      array = true;
      type = arrayOf[1];
    }
    // Inline object types (`{ [key: string]: string }`, maps) and scalars are not followed.
    props.set(m[1], { ref: imports.get(type) ?? null, array });
  }
  return { props };
}

/** Resolves an import specifier of a declaration file to another declaration file. */
function resolveDeclaration(fromFile, spec) {
  // ES module declarations import siblings as "./DeploymentSpec.js": the types are in DeploymentSpec.d.ts.
  spec = spec.replace(/\.js$/, "");
  if (spec.startsWith(".")) return resolve(dirname(fromFile), `${spec}.d.ts`);
  // Package specifier (e.g. @kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta): look in
  // every node_modules above the importing file, as Node's resolution would.
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", `${spec}.d.ts`);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return join(fromFile, "__unresolved__", spec);
  }
}
