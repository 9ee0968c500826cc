// Checks each service's manifest against the environment its code reads: the zod `configSchema`
// exported by the compiled `<workspace>/dist/config.js`. The environment a container would get
// (ConfigMaps, Secrets, literals, $(VAR) expansion) is rebuilt from the rendered objects and
// parsed with the schema itself, so required keys, formats (host:port, ports, enums) and any
// production-only rules are checked exactly as the service will check them at start.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { subjectOf } from "./findings.mjs";
import { isAgenticService, workspaceDirOf } from "./workloads.mjs";

/**
 * Variables that are set on purpose although no config schema reads them: `OTEL_*` are read by
 * the OpenTelemetry SDK (preloaded with --require @agentic/platform/telemetry), and the K8S_*
 * downward-API values exist to be expanded into OTEL_RESOURCE_ATTRIBUTES.
 */
const READ_OUTSIDE_SCHEMA = /^(OTEL_\w+|K8S_POD_NAME|K8S_NAMESPACE_NAME|K8S_NODE_NAME)$/;

/**
 * Secret values by Secret name, from every rendered overlay (generated names lose their kustomize
 * hash suffix), so a production Secret that exists only in the cluster is checked with the shape
 * of its development example.
 * @param {object[][]} docSets rendered documents of each overlay
 * @returns {Map<string, Record<string, string>>}
 */
export function collectSecretExamples(docSets) {
  const examples = new Map();
  for (const doc of docSets.flat()) {
    if (doc.kind !== "Secret") continue;
    const values = secretValues(doc);
    examples.set(doc.metadata.name, values);
    examples.set(doc.metadata.name.replace(/-[0-9a-z]{10}$/, ""), values);
  }
  return examples;
}

/**
 * Runs the env contract for every service Deployment in `docs`.
 * @param {object[]} docs rendered objects of one overlay
 * @param {import("./findings.mjs").Findings} findings
 * @param {{ repoRoot: string, secretExamples: Map<string, Record<string, string>>, unseen?: Map<string, Set<string>> }} options
 *   unseen (filled when given): per service, the variables whose value is in a Secret the manifests do not hold
 * @returns {Map<string, Record<string, unknown>>} each service's settings as its schema parses them (key by key
 *   where the whole environment does not parse)
 */
export function checkEnvContracts(docs, findings, { repoRoot, secretExamples, unseen }) {
  const configs = new Map();
  const configMaps = new Map(docs.filter((d) => d.kind === "ConfigMap").map((d) => [d.metadata.name, d.data ?? {}]));
  const secrets = new Map(docs.filter((d) => d.kind === "Secret").map((d) => [d.metadata.name, secretValues(d)]));
  for (const doc of docs.filter(isAgenticService)) {
    const schema = loadSchema(doc, repoRoot, findings);
    if (!schema) continue;
    const server = (doc.spec.template.spec.containers ?? []).find((c) => c.name === "server");
    if (!server) continue; // reported by the policy check
    const env = containerEnv(server, { configMaps, secrets, secretExamples });
    unseen?.set(doc.metadata.name, env.unknown);
    const parsed = checkOne(doc, schema, env, findings);
    if (parsed) configs.set(doc.metadata.name, parsed);
  }
  return configs;
}

/** Loads `configSchema` from the service's compiled config; reports why not when it cannot. */
function loadSchema(doc, repoRoot, findings) {
  const subject = subjectOf(doc);
  const dir = workspaceDirOf(doc.metadata.name);
  if (!existsSync(join(repoRoot, dir, "package.json"))) {
    findings.skip(subject, `no workspace ${dir}/ in ${repoRoot}; env contract not checked`);
    return undefined;
  }
  const file = join(repoRoot, dir, "dist", "config.js");
  if (!existsSync(file)) {
    findings.skip(
      subject,
      `${dir}/dist/config.js is not built; env contract not checked (build: npx turbo run build --filter=@agentic/${doc.metadata.name})`,
    );
    return undefined;
  }
  let exported;
  try {
    exported = createRequire(file)(file);
  } catch (err) {
    findings.error(subject, `cannot load ${dir}/dist/config.js: ${err.message}`);
    return undefined;
  }
  const schema = exported?.configSchema;
  const shape = schema?.shape ?? schema?.in?.shape; // z.object(...), or z.object(...).transform(...)
  if (typeof schema?.safeParse !== "function" || !shape) {
    findings.error(subject, `${dir}/dist/config.js does not export configSchema as a zod object`);
    return undefined;
  }
  return { schema, shape, keys: new Set(Object.keys(shape)) };
}

/**
 * The environment of one container as the kubelet would build it.
 * `unknown`: names whose value lives in a Secret we cannot see; `opaque`: Secrets loaded whole
 * with envFrom whose keys we cannot see (they may provide any name).
 */
export function containerEnv(container, { configMaps, secrets, secretExamples }) {
  /** @type {Map<string, string | undefined>} */
  const values = new Map();
  const unknown = new Set();
  const opaque = [];
  const secretData = (name) => secrets.get(name) ?? secretExamples.get(name);

  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? "";
    if (source.configMapRef) {
      for (const [k, v] of Object.entries(configMaps.get(source.configMapRef.name) ?? {})) values.set(prefix + k, v);
    }
    if (source.secretRef) {
      const data = secretData(source.secretRef.name);
      if (data) for (const [k, v] of Object.entries(data)) values.set(prefix + k, v);
      else opaque.push(source.secretRef.name);
    }
  }
  for (const env of container.env ?? []) {
    const from = env.valueFrom;
    if (from?.configMapKeyRef) values.set(env.name, configMaps.get(from.configMapKeyRef.name)?.[from.configMapKeyRef.key]);
    else if (from?.secretKeyRef) {
      const value = secretData(from.secretKeyRef.name)?.[from.secretKeyRef.key];
      values.set(env.name, value);
      if (value === undefined) unknown.add(env.name);
    } else if (from?.fieldRef) values.set(env.name, `<${from.fieldRef.fieldPath}>`);
    else if (from?.resourceFieldRef) values.set(env.name, `<${from.resourceFieldRef.resource}>`);
    else values.set(env.name, expand(env.value ?? "", values));
  }
  return { values, unknown, opaque };
}

/** Kubernetes $(VAR) expansion: defined names are replaced, $$ escapes, the rest stays as written. */
function expand(value, values) {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (match, name) => {
    if (match === "$$") return "$";
    return values.get(name) ?? match;
  });
}

function checkOne(doc, { schema, shape, keys }, env, findings) {
  const subject = subjectOf(doc);
  const input = Object.fromEntries([...env.values].filter(([, v]) => v !== undefined));
  const opaqueNote = env.opaque.length > 0 ? ` unless Secret ${env.opaque.join(", ")} provides it` : "";

  const result = schema.safeParse(input);
  const rejected = new Set();
  if (!result.success) {
    for (const issue of result.error.issues) {
      rejected.add(issue.path?.[0]);
      const key = issue.path?.[0];
      if (typeof key === "string" && env.unknown.has(key)) continue; // value lives in a Secret we cannot see
      const message = `configSchema rejects the environment: ${key ?? "(env)"}: ${issue.message}`;
      if (typeof key === "string" && !env.values.has(key) && opaqueNote) findings.warning(subject, message + opaqueNote);
      else findings.error(subject, message);
    }
  }

  const unset = [...keys].filter((k) => !env.values.has(k) && !rejected.has(k)).sort();
  if (unset.length > 0 && env.opaque.length === 0) {
    findings.note(subject, `not set, so the configSchema defaults apply: ${unset.join(", ")}`);
  }
  const unread = [...env.values.keys()].filter((k) => !keys.has(k) && !READ_OUTSIDE_SCHEMA.test(k)).sort();
  // An error, not a warning: a misnamed variable is a setting that silently does nothing (a wallet
  // key under the wrong name once left the paid rails switched off).
  if (unread.length > 0) findings.error(subject, `sets ${unread.join(", ")} but no configSchema key reads it`);
  if (result.success) return result.data;
  // Key by key (defaults included) where the whole did not parse, e.g. for want of a Secret's value.
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, field.safeParse(input[key]).data]));
}

function secretValues(doc) {
  const decoded = Object.fromEntries(
    Object.entries(doc.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v), "base64").toString("utf8")]),
  );
  return { ...decoded, ...(doc.stringData ?? {}) };
}
