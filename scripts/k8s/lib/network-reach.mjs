// Whether every dependency a service is configured with is reachable under the overlay's
// NetworkPolicies: each host:port or URL setting of its parsed configuration (`*_ADDR`, `*_URL`,
// `*_URI`) is resolved to a Service of the manifests (its pods and target port) or to a host outside
// the cluster, and both ends are evaluated as Kubernetes does: the source pod's egress policies, and
// for a pod the destination's ingress policies (an end no policy selects for that direction is open).
// A dependency whose value lives in a Secret the manifests do not hold (e.g. the gateway's Redis URL)
// is checked where such a value points: outside the cluster, on its protocol's port.
import { subjectOf } from "./findings.mjs";
import { containersOf, isAgenticService, podLabelsOf, podSpecOf } from "./workloads.mjs";

/** Default ports of the URL schemes services are configured with. */
const SCHEME_PORTS = { http: 80, https: 443, nats: 4222, redis: 6379, rediss: 6379, mongodb: 27017, "mongodb+srv": 27017 };

/** Dependency settings whose value may be in a Secret outside the manifests, and the port such a value uses. */
const UNSEEN_SECRET_PORTS = { RATE_LIMIT_REDIS_URL: 6379, MONGODB_URI: 27017 };

/** Where a name is resolved: CoreDNS in kube-system (what the DNS egress policy must allow). */
const KUBE_DNS = { namespace: "kube-system", labels: { "k8s-app": "kube-dns" }, port: 53, protocol: "UDP" };

/**
 * @param {object[]} docs rendered objects of one overlay
 * @param {import("./findings.mjs").Findings} findings
 * @param {{ configs: Map<string, Record<string, unknown>>, unseen: Map<string, Set<string>> }} options
 *   configs: each service's settings as its configSchema parsed them; unseen: per service, the
 *   dependency settings whose value comes from a Secret the manifests do not hold
 */
export function checkDependencyReach(docs, findings, { configs, unseen }) {
  const policies = docs.filter((d) => d.kind === "NetworkPolicy");
  if (policies.length === 0) return; // nothing restricts traffic
  const namespace = docs.find((d) => d.metadata?.namespace)?.metadata.namespace ?? "default";
  const world = { policies, namespace, services: docs.filter((d) => d.kind === "Service"), workloads: docs.filter((d) => podSpecOf(d)) };

  for (const deployment of docs.filter(isAgenticService)) {
    const name = deployment.metadata.name;
    const source = { labels: podLabelsOf(deployment), namespace };
    const deps = dependenciesOf(configs.get(name) ?? {}, unseen.get(name) ?? new Set());
    if (deps.some((d) => !isIpAddress(d.host)) && !egressAllows(world, source, { pod: KUBE_DNS, port: KUBE_DNS.port, protocol: "UDP" })) {
      findings.error(
        subjectOf(deployment),
        "its pods may not reach kube-dns (UDP 53) under the NetworkPolicies: no dependency name resolves",
      );
    }
    for (const dep of deps) {
      const problem = reachProblem(world, source, dep);
      if (problem) findings.error(subjectOf(deployment), `${dep.setting} (${dep.describe}) is blocked: ${problem}`);
    }
  }

  // Our Jobs (the ledger's MongoDB migrations) reach what their Secrets point at as the services do.
  for (const job of docs.filter((d) => d.kind === "Job" && d.metadata?.labels?.["app.kubernetes.io/part-of"] === "agentic")) {
    const fromSecrets = new Set(
      containersOf(podSpecOf(job)).flatMap(({ container }) =>
        (container.env ?? []).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name),
      ),
    );
    const source = { labels: podLabelsOf(job), namespace };
    for (const dep of dependenciesOf({}, fromSecrets)) {
      const problem = reachProblem(world, source, dep);
      if (problem) findings.error(subjectOf(job), `${dep.setting} (${dep.describe}) is blocked: ${problem}`);
    }
  }
}

/** The host:port dependencies of one service's settings. */
export function dependenciesOf(config, unseenSettings) {
  const deps = [];
  for (const [setting, value] of Object.entries(config)) {
    if (typeof value !== "string" || !/(_ADDR|_URL|_URI)$/.test(setting)) continue;
    for (const target of targetsOf(setting, value)) deps.push({ setting, ...target, describe: `${target.host}:${target.port}` });
  }
  for (const setting of unseenSettings) {
    const port = UNSEEN_SECRET_PORTS[setting];
    if (port === undefined || deps.some((d) => d.setting === setting)) continue;
    deps.push({
      setting,
      host: "<outside the cluster>",
      port,
      external: true,
      describe: `in a Secret not in the manifests, assumed outside the cluster on port ${port}`,
    });
  }
  return deps;
}

/** host:port targets of one value: `host:port`, or a URL (several hosts for a comma-separated NATS_URL or a MongoDB seed list). */
function targetsOf(setting, value) {
  if (setting.endsWith("_ADDR")) {
    const m = /^([^\s:]+):(\d+)$/.exec(value);
    return m ? [{ host: m[1], port: Number(m[2]) }] : [];
  }
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?([^/?#]+)/i.exec(value.split(",")[0].trim());
  if (!m) return [];
  const scheme = m[1].toLowerCase();
  const hosts = scheme.startsWith("nats")
    ? value
        .split(",")
        .map((u) => /^\w+:\/\/(?:[^@/]*@)?([^/?#]+)/.exec(u.trim())?.[1])
        .filter(Boolean)
    : m[2].split(",");
  return hosts.flatMap((hostPort) => {
    const hp = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(hostPort);
    const port = hp?.[2] ? Number(hp[2]) : SCHEME_PORTS[scheme];
    return hp && port ? [{ host: hp[1], port }] : [];
  });
}

/** Why `source` cannot reach `dep`, or undefined when it can (loopback needs no network). */
function reachProblem(world, source, dep) {
  if (/^(localhost|127\.\d+\.\d+\.\d+|::1)$/.test(dep.host)) return undefined;
  const service = dep.external ? undefined : serviceNamed(world, dep.host);
  if (!service) {
    if (egressAllows(world, source, { ip: isIpAddress(dep.host) ? dep.host : undefined, port: dep.port, protocol: "TCP" }))
      return undefined;
    return `no NetworkPolicy lets its pods open connections outside the cluster on port ${dep.port}`;
  }
  const servicePort = (service.spec?.ports ?? []).find((p) => p.port === dep.port);
  if (!servicePort) return `Service ${service.metadata.name} has no port ${dep.port}`;
  const targets = world.workloads.filter((w) => selectsAll({ matchLabels: service.spec?.selector }, podLabelsOf(w)));
  if (targets.length === 0) return `Service ${service.metadata.name} selects no pods in the manifests`;
  for (const target of targets) {
    const port = containerPort(target, servicePort.targetPort ?? servicePort.port);
    if (!port) return `${subjectOf(target)} has no container port ${servicePort.targetPort ?? servicePort.port}`;
    const dest = {
      pod: { namespace: world.namespace, labels: podLabelsOf(target) },
      port: port.containerPort,
      portName: port.name,
      protocol: port.protocol ?? "TCP",
    };
    if (!egressAllows(world, source, dest))
      return `no NetworkPolicy lets its pods open egress to ${subjectOf(target)} port ${port.name ?? port.containerPort}`;
    if (!ingressAllows(world, source, dest))
      return `no NetworkPolicy lets ${subjectOf(target)} accept it on port ${port.name ?? port.containerPort}`;
  }
  return undefined;
}

/** The Service a host names: `svc`, `svc.<ns>`, `svc.<ns>.svc[.cluster.local]`, or a StatefulSet pod `pod.svc...`. */
function serviceNamed(world, host) {
  const labels = host.split(".");
  const candidates = [labels[0], labels[1]].filter(Boolean);
  return (
    world.services.find((s) => candidates[0] === s.metadata.name) ??
    (labels.length > 1 ? world.services.find((s) => candidates[1] === s.metadata.name && s.spec?.clusterIP === "None") : undefined)
  );
}

/** The container port a Service's targetPort (name or number) means on a workload's pods. */
function containerPort(workload, targetPort) {
  const ports = containersOf(podSpecOf(workload)).flatMap(({ container }) => container.ports ?? []);
  return ports.find((p) => (typeof targetPort === "string" ? p.name === targetPort : p.containerPort === targetPort));
}

/** Whether the source pod may open a connection to `dest` (a pod in a namespace, or an address outside the cluster). */
function egressAllows(world, source, dest) {
  const selecting = world.policies.filter((p) => appliesTo(p, "Egress") && selectsAll(p.spec?.podSelector, source.labels, true));
  if (selecting.length === 0) return true;
  return selecting.some((p) =>
    (p.spec.egress ?? []).some((rule) => peersMatch(rule.to, dest.pod, dest, world) && portsMatch(rule.ports, dest)),
  );
}

/** Whether the destination pod accepts a connection from the source pod. */
function ingressAllows(world, source, dest) {
  const selecting = world.policies.filter((p) => appliesTo(p, "Ingress") && selectsAll(p.spec?.podSelector, dest.pod.labels, true));
  if (selecting.length === 0) return true;
  return selecting.some((p) =>
    (p.spec.ingress ?? []).some((rule) => peersMatch(rule.from, source, undefined, world) && portsMatch(rule.ports, dest)),
  );
}

/** A policy's types: policyTypes, or (unset) Ingress plus Egress when it has egress rules. */
function appliesTo(policy, type) {
  const types = policy.spec?.policyTypes ?? ["Ingress", ...(policy.spec?.egress ? ["Egress"] : [])];
  return types.includes(type);
}

/**
 * Whether a rule's peers (`to` or `from`) include `pod` ({namespace, labels}), or for an address
 * outside the cluster (`pod` undefined) an ipBlock holding it (any ipBlock for a name: the CIDR of a
 * DNS name cannot be known offline). No peers: everyone.
 */
function peersMatch(peers, pod, dest, world) {
  if (!peers || peers.length === 0) return true;
  return peers.some((peer) => {
    if (!pod) return peer.ipBlock !== undefined && (dest?.ip === undefined || inBlock(dest.ip, peer.ipBlock));
    if (peer.ipBlock) return false;
    const namespaceOk = peer.namespaceSelector
      ? selectsAll(peer.namespaceSelector, { "kubernetes.io/metadata.name": pod.namespace }, true)
      : pod.namespace === world.namespace;
    return namespaceOk && (peer.podSelector === undefined || selectsAll(peer.podSelector, pod.labels, true));
  });
}

/** Whether a rule's ports include the destination port (number, or a pod's port name); none: every port. */
function portsMatch(ports, dest) {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? "TCP") !== (dest.protocol ?? "TCP")) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === "string") return p.port === dest.portName;
    return p.endPort ? dest.port >= p.port && dest.port <= p.endPort : dest.port === p.port;
  });
}

/** A label selector (matchLabels, matchExpressions) against labels; `emptyMatchesAll`: {} selects everything, as in policies. */
function selectsAll(selector, labels, emptyMatchesAll = false) {
  const matchLabels = Object.entries(selector?.matchLabels ?? {});
  const expressions = selector?.matchExpressions ?? [];
  if (matchLabels.length === 0 && expressions.length === 0) return emptyMatchesAll;
  return (
    matchLabels.every(([k, v]) => labels?.[k] === v) &&
    expressions.every(({ key, operator, values = [] }) => {
      const has = Object.hasOwn(labels ?? {}, key);
      if (operator === "In") return has && values.includes(labels[key]);
      if (operator === "NotIn") return !has || !values.includes(labels[key]);
      if (operator === "Exists") return has;
      if (operator === "DoesNotExist") return !has;
      return false;
    })
  );
}

function isIpAddress(host) {
  return /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

/** An IPv4 address inside an ipBlock's cidr and outside its exceptions. */
function inBlock(ip, block) {
  return inCidr(ip, block.cidr) && !(block.except ?? []).some((cidr) => inCidr(ip, cidr));
}

function inCidr(ip, cidr) {
  const [base, bits] = String(cidr).split("/");
  if (!isIpAddress(ip) || !isIpAddress(base)) return false;
  const toInt = (a) => a.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
  const size = 2 ** (32 - Number(bits ?? 32));
  return Math.floor(toInt(ip) / size) === Math.floor(toInt(base) / size);
}
