// Checks between objects of different kinds, which no schema sees: the edge (Gateway, HTTPRoute,
// cert-manager Certificate and Issuer) routes to a real Service port, with a certificate for its
// host and a timeout above the gateway's execute deadline; monitoring (PodMonitor, PrometheusRule,
// the dashboard ConfigMap) scrapes every service and links every alert to a runbook in the repo;
// the EXECUTIONS stream's settings fit the NATS server and outlast the routers' outcome replay; the
// executor's and the gateway's grace periods hold their shutdown deadlines (no rollout cuts an execution).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { subjectOf } from "./findings.mjs";
import { compiledConfig, shutdownTimingProblems } from "./shutdown-timing.mjs";
import { containersOf, isAgenticService, podLabelsOf, podSpecOf } from "./workloads.mjs";
import { runbookPageOf, runbookUrlProblem } from "./runbooks.mjs";

const SEVERITIES = new Set(["critical", "warning", "info"]);

/**
 * @param {object[]} docs rendered objects of one overlay
 * @param {import("./findings.mjs").Findings} findings
 * @param {{ repoRoot: string, configs: Map<string, Record<string, unknown>> }} options
 *   configs: each service's environment as its configSchema parsed it (checkEnvContracts)
 */
export function checkCrossReferences(docs, findings, { repoRoot, configs }) {
  const byKind = (kind) => docs.filter((d) => d.kind === kind);
  checkEdge(byKind, findings, configs);
  checkMonitoring(docs, byKind, findings, repoRoot);
  checkStream(byKind, findings, configs);
  checkShutdownTimings(docs, findings, { repoRoot, configs });
}

/** A rollout cuts no execution: grace periods and deadlines derived from the execution budget (lib/shutdown-timing.mjs). */
function checkShutdownTimings(docs, findings, { repoRoot, configs }) {
  let derive;
  try {
    derive = { executor: compiledConfig(repoRoot, "services/executor"), gateway: compiledConfig(repoRoot, "gateway") };
  } catch (err) {
    findings.skip("Deployment/executor", `shutdown timings not checked: ${err.message}`);
    return;
  }
  for (const problem of shutdownTimingProblems(docs, configs, derive)) {
    findings.error(problem.startsWith("gateway") ? "Deployment/gateway" : "Deployment/executor", problem);
  }
}

function checkEdge(byKind, findings, configs) {
  const gateways = new Map(byKind("Gateway").map((g) => [g.metadata.name, g]));
  const services = new Map(byKind("Service").map((s) => [s.metadata.name, s]));
  const certificates = byKind("Certificate");
  const secrets = new Set(byKind("Secret").map((s) => s.metadata.name));
  const executeDeadlineMs = configs.get("gateway")?.EXECUTE_DEADLINE_MS;

  for (const route of byKind("HTTPRoute")) {
    const subject = subjectOf(route);
    for (const parent of route.spec?.parentRefs ?? []) {
      if ((parent.kind ?? "Gateway") !== "Gateway" || parent.namespace) continue; // another namespace's Gateway: not ours to check
      const gateway = gateways.get(parent.name);
      if (!gateway) findings.error(subject, `parentRef Gateway ${parent.name} is not defined`);
      else if (parent.sectionName && !gateway.spec.listeners.some((l) => l.name === parent.sectionName))
        findings.error(subject, `Gateway ${parent.name} has no listener ${parent.sectionName}`);
    }
    for (const [i, rule] of (route.spec?.rules ?? []).entries()) {
      for (const backend of rule.backendRefs ?? []) {
        if ((backend.kind ?? "Service") !== "Service" || backend.namespace) continue;
        const service = services.get(backend.name);
        if (!service) findings.error(subject, `backendRef Service ${backend.name} is not defined`);
        else if (!(service.spec.ports ?? []).some((p) => p.port === backend.port))
          findings.error(subject, `Service ${backend.name} has no port ${backend.port}`);
      }
      const timeout = rule.timeouts?.request;
      if (timeout !== undefined && executeDeadlineMs !== undefined && rule.backendRefs?.some((b) => b.name === "gateway")) {
        const ms = durationMs(timeout);
        if (ms !== 0 && (ms === undefined || ms <= executeDeadlineMs)) {
          findings.error(
            subject,
            `rules[${i}].timeouts.request ${timeout} must exceed the gateway's EXECUTE_DEADLINE_MS (${executeDeadlineMs} ms): ` +
              "the proxy would cut a slow execute before the gateway answers it",
          );
        }
      }
    }
  }

  for (const gateway of gateways.values()) {
    for (const listener of gateway.spec?.listeners ?? []) {
      for (const ref of listener.tls?.certificateRefs ?? []) {
        if ((ref.kind ?? "Secret") !== "Secret" || ref.namespace) continue;
        const certificate = certificates.find((c) => c.spec?.secretName === ref.name);
        const where = `${subjectOf(gateway)} listener ${listener.name}`;
        if (!certificate && !secrets.has(ref.name)) {
          findings.error(where, `certificate Secret ${ref.name} is neither written by a Certificate nor in the manifests`);
        } else if (certificate && listener.hostname && !(certificate.spec.dnsNames ?? []).some((n) => coversHost(n, listener.hostname))) {
          findings.error(where, `Certificate ${certificate.metadata.name} does not cover hostname ${listener.hostname}`);
        }
      }
    }
  }

  const issuers = new Set(byKind("Issuer").map((i) => i.metadata.name));
  for (const certificate of certificates) {
    const ref = certificate.spec?.issuerRef ?? {};
    if ((ref.kind ?? "Issuer") === "Issuer" && !issuers.has(ref.name)) {
      findings.error(subjectOf(certificate), `issuerRef Issuer ${ref.name} is not defined`);
    } else if (ref.kind === "ClusterIssuer") {
      findings.note(subjectOf(certificate), `ClusterIssuer ${ref.name} is not in the manifests; it must exist in the cluster`);
    }
  }
  for (const issuer of byKind("Issuer")) {
    for (const solver of issuer.spec?.acme?.solvers ?? []) {
      for (const parent of solver.http01?.gatewayHTTPRoute?.parentRefs ?? []) {
        if (!parent.namespace && !gateways.has(parent.name))
          findings.error(subjectOf(issuer), `solver parentRef Gateway ${parent.name} is not defined`);
      }
    }
  }
}

function checkMonitoring(docs, byKind, findings, repoRoot) {
  const monitors = byKind("PodMonitor");
  if (monitors.length > 0) {
    for (const workload of docs.filter(isAgenticService)) {
      const labels = podLabelsOf(workload);
      const ports = new Set(containersOf(podSpecOf(workload)).flatMap(({ container }) => (container.ports ?? []).map((p) => p.name)));
      const scraped = monitors.some(
        (m) => matchesSelector(m.spec?.selector, labels) && (m.spec?.podMetricsEndpoints ?? []).some((e) => ports.has(e.port)),
      );
      if (!scraped)
        findings.error(
          subjectOf(workload),
          "no PodMonitor scrapes it (a selector matching its pods and an endpoint on one of its named ports)",
        );
    }
  }

  for (const rule of byKind("PrometheusRule")) {
    for (const group of rule.spec?.groups ?? []) {
      for (const r of group.rules ?? []) {
        if (!r.alert) continue;
        const subject = `${subjectOf(rule)} alert ${r.alert}`;
        if (!SEVERITIES.has(r.labels?.severity)) findings.error(subject, `labels.severity must be one of ${[...SEVERITIES].join(", ")}`);
        if (!r.annotations?.summary) findings.error(subject, "annotations.summary is missing");
        const problem = runbookUrlProblem(r);
        if (problem) findings.error(subject, problem);
        else if (!existsSync(join(repoRoot, runbookPageOf(r)))) findings.error(subject, `runbook ${runbookPageOf(r)} does not exist`);
      }
    }
  }

  for (const map of byKind("ConfigMap").filter((c) => c.metadata?.labels?.grafana_dashboard)) {
    for (const [key, text] of Object.entries(map.data ?? {})) {
      try {
        const dashboard = JSON.parse(text);
        if (!dashboard.uid || !Array.isArray(dashboard.panels))
          findings.error(subjectOf(map), `${key}: a dashboard needs a uid and panels`);
      } catch (err) {
        findings.error(subjectOf(map), `${key} is not JSON: ${err.message}`);
      }
    }
  }
}

function checkStream(byKind, findings, configs) {
  const ledger = configs.get("ledger");
  // Both rank from route health replayed from the outcomes: the router (recommend) and the executor (execute).
  for (const service of ["router", "executor"]) {
    const replayMs = configs.get(service)?.OUTCOME_REPLAY_MS;
    if (ledger?.NATS_STREAM_KEEP_MS !== undefined && replayMs !== undefined && ledger.NATS_STREAM_KEEP_MS < replayMs) {
      findings.error(
        "Deployment/ledger",
        `NATS_STREAM_KEEP_MS (${ledger.NATS_STREAM_KEEP_MS}) is below the ${service}'s OUTCOME_REPLAY_MS (${replayMs}): ` +
          `outcomes a starting ${service} replays would already be trimmed`,
      );
    }
  }
  checkRankingAlike(findings, configs);
  // The stream's byte limit against the NATS server's storage, with every other stream and bucket: lib/jetstream-budget.mjs.
}

/** The settings of the ranking (packages/ranking/src/settings.ts): the router and the executor rank alike only with the same ones. */
const RANKING_SETTINGS = [
  "DEFAULT_PREFERENCES",
  "WEIGHT_DECAY",
  "UNNAMED_GOAL_WEIGHT",
  "RELIABILITY_ZERO_AT",
  "PRIOR_WEIGHT_CALLS",
  "HEALTH_SUCCESS_WINDOW",
  "HEALTH_LATENCY_WINDOW",
  "HEALTH_EWMA_ALPHA",
  "BREAKER_FAILURES",
  "BREAKER_COOLDOWN_MS",
  "HEALTH_MAX_ROUTES",
  "VENDOR_QUOTA_LOW_AT",
  "HEALTH_MAX_CALLER_ROUTES",
  "OUTCOME_REPLAY_MS",
];

function checkRankingAlike(findings, configs) {
  const router = configs.get("router");
  const executor = configs.get("executor");
  if (!router || !executor) return;
  for (const name of RANKING_SETTINGS) {
    const [r, e] = [JSON.stringify(router[name]), JSON.stringify(executor[name])];
    if (r !== e)
      findings.error(
        "Deployment/executor",
        `${name} is ${e} here but ${r} in the router: recommend and execute would rank differently (set the ranking's settings alike)`,
      );
  }
}

/** matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist) of a label selector; an empty one matches nothing here. */
export function matchesSelector(selector, labels) {
  const matchLabels = Object.entries(selector?.matchLabels ?? {});
  const expressions = selector?.matchExpressions ?? [];
  if (matchLabels.length === 0 && expressions.length === 0) return false;
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

/** Gateway API durations ("180s", "1m30s", "500ms") in ms; undefined when unreadable. */
export function durationMs(text) {
  const units = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  const parts = [...String(text).matchAll(/(\d+)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== String(text)) return undefined;
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
}

/** A certificate name covers a host exactly or as a one-label wildcard. */
function coversHost(name, host) {
  return name === host || (name.startsWith("*.") && host.split(".").slice(1).join(".") === name.slice(2));
}
