// House rules for the rendered manifests (health, drain, one Deployment shape): hardened, sized and probed
// containers, the one Deployment shape every service shares, pinned images, and references
// between objects (ConfigMaps, Secrets, Services, HPAs, PDBs) that resolve.
import { subjectOf } from "./findings.mjs";
import { LONG_RUNNING_KINDS, containersOf, isAgenticService, podLabelsOf, podSpecOf, selects, workspaceDirOf } from "./workloads.mjs";

/**
 * Node flags a server's command may put before --require: V8 heap sizes, e.g. --max-semi-space-size=2,
 * and --expose-gc (the router collects between the phases of its intent index's build).
 */
const MEMORY_FLAG = /^(--max-(semi|old)-space-size=\d+|--expose-gc)$/;

/** Ports each service role must declare, by name. */
const SERVICE_PORTS = { edge: { http: 8080 }, backend: { grpc: 50051, metrics: 9464 } };

/** The app drains within 20 s after a 5 s preStop pause. */
const MIN_GRACE_SECONDS = 25;

/** Names that carry credentials: they must come from a Secret, never a literal or a ConfigMap. */
const SECRET_NAME = /(_KEY|_KEYS|_SECRET|_TOKEN|_PASSWORD|_CREDENTIALS)$|^MONGODB_URI$/;

/**
 * Runs every policy over the rendered documents of one overlay.
 * @param {object[]} docs rendered objects
 * @param {import("./findings.mjs").Findings} findings
 * @param {{ pinnedImages: boolean }} options pinnedImages: release tags only (production overlays)
 */
export function checkPolicies(docs, findings, { pinnedImages }) {
  const index = indexDocs(docs);
  for (const doc of docs) {
    const podSpec = podSpecOf(doc);
    if (podSpec) checkWorkload(doc, podSpec, index, findings, pinnedImages);
    if (isAgenticService(doc)) checkServiceShape(doc, podSpec, findings);
    if (doc.kind === "ConfigMap") checkConfigMap(doc, findings);
  }
  checkServices(index, findings);
  checkScalers(index, findings);
  noteExternalSecrets(index, findings);
}

function indexDocs(docs) {
  const byKind = (kind) => new Map(docs.filter((d) => d.kind === kind).map((d) => [d.metadata?.name, d]));
  return {
    configMaps: byKind("ConfigMap"),
    secrets: byKind("Secret"),
    serviceAccounts: byKind("ServiceAccount"),
    services: byKind("Service"),
    hpas: byKind("HorizontalPodAutoscaler"),
    pdbs: byKind("PodDisruptionBudget"),
    workloads: docs.filter((d) => podSpecOf(d)),
    /** Secrets referenced but not rendered: name -> keys used (must exist before deploying). */
    externalSecrets: new Map(),
  };
}

function checkWorkload(doc, podSpec, index, findings, pinnedImages) {
  const subject = subjectOf(doc);
  const service = isAgenticService(doc);
  const longRunning = LONG_RUNNING_KINDS.has(doc.kind);

  const sa = podSpec.serviceAccountName ? index.serviceAccounts.get(podSpec.serviceAccountName) : undefined;
  if (podSpec.serviceAccountName && !sa) findings.error(subject, `serviceAccountName ${podSpec.serviceAccountName} is not defined`);
  if ((podSpec.automountServiceAccountToken ?? sa?.automountServiceAccountToken ?? true) !== false) {
    findings.error(subject, "automountServiceAccountToken must be false (no workload here calls the Kubernetes API)");
  }
  if (podSpec.enableServiceLinks !== false) {
    const message = "enableServiceLinks should be false (Service links inject *_PORT/*_SERVICE_HOST variables into the environment)";
    if (service) findings.error(subject, message);
    else findings.warning(subject, message);
  }

  const main = podSpec.containers?.[0]?.name;
  for (const { container, init } of containersOf(podSpec)) {
    const where = `${subject} ${init ? "initContainer" : "container"} ${container.name}`;
    checkResources(container, where, findings);
    checkSecurity(container, podSpec.securityContext ?? {}, where, findings);
    checkImage(container.image, where, findings, pinnedImages);
    for (const port of container.ports ?? []) {
      if (!port.name)
        findings.error(where, `port ${port.containerPort} has no name (probes, Services and NetworkPolicies refer to ports by name)`);
    }
    if (longRunning && !init && container.name !== main) {
      // A sidecar (NATS' config reloader and metrics exporter): never a readiness probe, which would take
      // the workload out of its Service when only the sidecar is unwell; a liveness probe when it serves a port.
      if (container.readinessProbe)
        findings.error(where, "a sidecar must not have a readinessProbe (it would gate the workload's readiness)");
      if (!container.livenessProbe && (container.ports ?? []).length > 0) findings.error(where, "livenessProbe missing");
    } else if (longRunning && !init) {
      if (!container.readinessProbe) findings.error(where, "readinessProbe missing");
      if (!container.livenessProbe) findings.error(where, "livenessProbe missing");
      if (!container.startupProbe && service) findings.error(where, "startupProbe missing");
      else if (!container.startupProbe) findings.warning(where, "startupProbe missing");
    }
    checkEnvSources(container, where, index, findings);
  }
  for (const volume of podSpec.volumes ?? []) {
    if (volume.configMap && !index.configMaps.has(volume.configMap.name))
      findings.error(subject, `volume ${volume.name}: ConfigMap ${volume.configMap.name} is not defined`);
    if (volume.secret) useSecret(volume.secret.secretName, undefined, subject, index, findings);
  }
}

function checkResources(container, where, findings) {
  for (const kind of ["requests", "limits"]) {
    for (const resource of ["cpu", "memory"]) {
      if (container.resources?.[kind]?.[resource] === undefined) findings.error(where, `resources.${kind}.${resource} missing`);
    }
  }
}

function checkSecurity(container, podSecurity, where, findings) {
  const sc = container.securityContext ?? {};
  if ((sc.runAsNonRoot ?? podSecurity.runAsNonRoot) !== true) findings.error(where, "runAsNonRoot must be true");
  if ((sc.runAsUser ?? podSecurity.runAsUser) === 0) findings.error(where, "runAsUser must not be 0");
  if (sc.privileged === true) findings.error(where, "privileged must not be true");
  if (sc.allowPrivilegeEscalation !== false) findings.error(where, "securityContext.allowPrivilegeEscalation must be false");
  if (sc.readOnlyRootFilesystem !== true) findings.error(where, "securityContext.readOnlyRootFilesystem must be true");
  if (!(sc.capabilities?.drop ?? []).includes("ALL")) findings.error(where, "securityContext.capabilities.drop must include ALL");
  const seccomp = (sc.seccompProfile ?? podSecurity.seccompProfile)?.type;
  if (seccomp !== "RuntimeDefault" && seccomp !== "Localhost")
    findings.error(where, "seccompProfile.type must be RuntimeDefault (pod or container)");
}

/** `repo/name:tag`, `repo/name@sha256:...`; a port in the registry host is not a tag. */
function checkImage(image, where, findings, pinnedImages) {
  if (!image) {
    findings.error(where, "image missing");
    return;
  }
  if (image.includes("@sha256:")) return;
  const lastSegment = image.slice(image.lastIndexOf("/") + 1);
  const tag = lastSegment.includes(":") ? lastSegment.slice(lastSegment.indexOf(":") + 1) : undefined;
  if (!tag) findings.error(where, `image ${image} has no tag (it would pull :latest)`);
  else if (tag === "latest") findings.error(where, `image ${image} uses :latest`);
  else if (pinnedImages && !/^v?\d+\.\d+\.\d+/.test(tag))
    findings.error(where, `image ${image}: production images are pinned to a release tag (x.y.z) or a digest`);
}

/** ConfigMaps and Secrets a container reads must exist (or, for Secrets, be listed as external). */
function checkEnvSources(container, where, index, findings) {
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef && !index.configMaps.has(source.configMapRef.name) && source.configMapRef.optional !== true) {
      findings.error(where, `envFrom ConfigMap ${source.configMapRef.name} is not defined`);
    }
    if (source.secretRef) useSecret(source.secretRef.name, undefined, where, index, findings);
  }
  for (const env of container.env ?? []) {
    const cm = env.valueFrom?.configMapKeyRef;
    if (cm) {
      const map = index.configMaps.get(cm.name);
      if (!map) findings.error(where, `env ${env.name}: ConfigMap ${cm.name} is not defined`);
      else if (!(cm.key in (map.data ?? {})) && cm.optional !== true)
        findings.error(where, `env ${env.name}: ConfigMap ${cm.name} has no key ${cm.key}`);
    }
    const secret = env.valueFrom?.secretKeyRef;
    if (secret) useSecret(secret.name, secret.key, `${where} env ${env.name}`, index, findings);
    if (SECRET_NAME.test(env.name) && !secret)
      findings.error(where, `env ${env.name} looks like a credential: take it from a Secret (secretKeyRef), not a literal or ConfigMap`);
  }
}

function useSecret(name, key, where, index, findings) {
  const secret = index.secrets.get(name);
  if (!secret) {
    const keys = index.externalSecrets.get(name) ?? new Set();
    if (key) keys.add(key);
    index.externalSecrets.set(name, keys);
    return;
  }
  const data = { ...(secret.data ?? {}), ...(secret.stringData ?? {}) };
  if (key && !(key in data)) findings.error(where, `Secret ${name} has no key ${key}`);
}

function checkConfigMap(doc, findings) {
  for (const key of Object.keys(doc.data ?? {})) {
    if (SECRET_NAME.test(key)) findings.error(subjectOf(doc), `key ${key} looks like a credential: keep it in a Secret`);
  }
}

/** The Deployment shape every service shares. */
function checkServiceShape(doc, podSpec, findings) {
  const subject = subjectOf(doc);
  const name = doc.metadata.name;
  const role = doc.metadata.labels["app.kubernetes.io/component"];

  for (const [where, labels] of [
    ["metadata.labels", doc.metadata.labels],
    ["pod template labels", podLabelsOf(doc)],
  ]) {
    if (labels?.["app.kubernetes.io/name"] !== name) findings.error(subject, `${where}: app.kubernetes.io/name must be ${name}`);
    if (labels?.["app.kubernetes.io/part-of"] !== "agentic") findings.error(subject, `${where}: app.kubernetes.io/part-of must be agentic`);
    if (!labels?.["app.kubernetes.io/component"]) findings.error(subject, `${where}: app.kubernetes.io/component missing`);
  }

  if ((podSpec.terminationGracePeriodSeconds ?? 30) < MIN_GRACE_SECONDS) {
    findings.error(subject, `terminationGracePeriodSeconds must be at least ${MIN_GRACE_SECONDS} (5 s preStop + 20 s drain)`);
  }
  if (!podSpec.topologySpreadConstraints?.length && !podSpec.affinity?.podAntiAffinity) {
    findings.error(subject, "no topologySpreadConstraints or podAntiAffinity: replicas could all land on one node");
  }

  const containers = podSpec.containers ?? [];
  const server = containers.find((c) => c.name === "server");
  if (containers.length !== 1 || !server) {
    findings.error(subject, `expected exactly one container, named server (found: ${containers.map((c) => c.name).join(", ") || "none"})`);
    return;
  }
  const where = `${subject} container server`;
  const main = `${workspaceDirOf(name)}/dist/main.js`;
  // Memory flags may come first (measured per service: the catalog's young generation, the router's --expose-gc).
  const memoryFlags = (server.command ?? []).slice(1).filter((arg) => MEMORY_FLAG.test(arg));
  const expected = ["node", ...memoryFlags, "--require", "@agentic/platform/telemetry", main];
  if (JSON.stringify(server.command) !== JSON.stringify(expected)) findings.error(where, `command must be ${JSON.stringify(expected)}`);

  const ports = new Map((server.ports ?? []).map((p) => [p.name, p.containerPort]));
  for (const [portName, number] of Object.entries(SERVICE_PORTS[role] ?? {})) {
    if (ports.get(portName) !== number) findings.error(where, `port ${portName} must be ${number}`);
  }
  if (role === "backend") {
    if (server.readinessProbe?.grpc?.port !== 50051) findings.error(where, "readinessProbe must be the gRPC health check on 50051");
    if (server.livenessProbe?.grpc?.port !== 50051) findings.error(where, "livenessProbe must be the gRPC health check on 50051");
  } else {
    if (server.readinessProbe?.httpGet?.path !== "/readyz") findings.error(where, "readinessProbe must be GET /readyz");
    if (server.livenessProbe?.httpGet?.path !== "/healthz") findings.error(where, "livenessProbe must be GET /healthz");
  }
  if (!(server.volumeMounts ?? []).some((m) => m.mountPath === "/tmp"))
    findings.error(where, "no writable /tmp (emptyDir) under a read-only root filesystem");
  if (!(server.envFrom ?? []).some((s) => s.configMapRef))
    findings.error(where, "configuration must come from a ConfigMap (envFrom.configMapRef)");
}

/** Every Service selects pods, and its named target ports exist on them. */
function checkServices(index, findings) {
  for (const service of index.services.values()) {
    const subject = subjectOf(service);
    const pods = index.workloads.filter((w) => selects(service.spec?.selector, podLabelsOf(w)));
    if (pods.length === 0) {
      findings.error(subject, "selector matches no workload's pods");
      continue;
    }
    const ports = pods.flatMap((w) => containersOf(podSpecOf(w)).flatMap(({ container }) => container.ports ?? []));
    for (const port of service.spec?.ports ?? []) {
      const target = port.targetPort ?? port.port;
      const found = typeof target === "string" ? ports.some((p) => p.name === target) : ports.some((p) => p.containerPort === target);
      if (!found)
        findings.error(subject, `port ${port.name ?? port.port}: targetPort ${target} is not a container port of the selected pods`);
    }
  }
}

/** HPAs target existing Deployments that leave `replicas` to them; PDBs select pods. */
function checkScalers(index, findings) {
  for (const hpa of index.hpas.values()) {
    const ref = hpa.spec?.scaleTargetRef ?? {};
    const target = index.workloads.find((w) => w.kind === ref.kind && w.metadata?.name === ref.name);
    if (!target) findings.error(subjectOf(hpa), `scaleTargetRef ${ref.kind}/${ref.name} is not defined`);
    else if (target.spec?.replicas !== undefined) {
      findings.error(subjectOf(target), `sets spec.replicas but ${subjectOf(hpa)} owns the count: every kubectl apply would reset it`);
    }
  }
  for (const pdb of index.pdbs.values()) {
    if (!index.workloads.some((w) => selects(pdb.spec?.selector?.matchLabels, podLabelsOf(w)))) {
      findings.error(subjectOf(pdb), "selector matches no workload's pods");
    }
  }
}

function noteExternalSecrets(index, findings) {
  for (const [name, keys] of index.externalSecrets) {
    const detail = keys.size > 0 ? `keys: ${[...keys].join(", ")}` : "all keys are read as environment variables";
    findings.note(`Secret/${name}`, `not in the manifests; create it before deploying (${detail})`);
  }
}
