// What the checks need to know about rendered workloads: their pod specs, which ones are Agentic
// services, and where each service's workspace (and compiled config schema) lives.

/** Kinds whose pods run until stopped (they need probes); Jobs run to completion. */
export const LONG_RUNNING_KINDS = new Set(["Deployment", "StatefulSet", "DaemonSet"]);

/** The pod spec of a workload, or undefined for other kinds. */
export function podSpecOf(doc) {
  if (LONG_RUNNING_KINDS.has(doc.kind) || doc.kind === "Job") return doc.spec?.template?.spec;
  if (doc.kind === "CronJob") return doc.spec?.jobTemplate?.spec?.template?.spec;
  return undefined;
}

/** Labels on a workload's pods. */
export function podLabelsOf(doc) {
  if (doc.kind === "CronJob") return doc.spec?.jobTemplate?.spec?.template?.metadata?.labels ?? {};
  return doc.spec?.template?.metadata?.labels ?? {};
}

/** Every container of a pod spec, init containers included, with its kind for messages. */
export function containersOf(podSpec) {
  return [
    ...(podSpec?.initContainers ?? []).map((c) => ({ container: c, init: true })),
    ...(podSpec?.containers ?? []).map((c) => ({ container: c, init: false })),
  ];
}

/**
 * Roles of Agentic services, from `app.kubernetes.io/component`: `edge` is the HTTP gateway,
 * `backend` the gRPC services. Infrastructure (NATS, MongoDB, the collector) has other roles.
 */
export const SERVICE_ROLES = new Set(["edge", "backend"]);

/** True for the Deployment of one of our services (gateway, catalog, router, executor, ledger). */
export function isAgenticService(doc) {
  const labels = doc.metadata?.labels ?? {};
  return (
    doc.kind === "Deployment" &&
    labels["app.kubernetes.io/part-of"] === "agentic" &&
    SERVICE_ROLES.has(labels["app.kubernetes.io/component"])
  );
}

/** Workspace folder of a service, relative to the repo root (gateway/ at the root, the others under services/). */
export function workspaceDirOf(serviceName) {
  return serviceName === "gateway" ? "gateway" : `services/${serviceName}`;
}

/** True when every label of `selector` is on `labels`. An empty selector matches nothing here. */
export function selects(selector, labels) {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([k, v]) => labels?.[k] === v);
}
