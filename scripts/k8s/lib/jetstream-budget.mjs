// Whether the JetStream storage of the NATS server holds every stream and bucket the services create
// at its byte limit at once. Each service's compiled config lists what it creates with its limit
// (`jetStreamFootprint(config)`: the ledger's EXECUTIONS stream and store-identity bucket, the executor's vendor quota counters, the router's
// buckets); their sum must stay below the server's max_file_store, so a bucket filled by free calls
// can never take the room the EXECUTIONS stream is promised (a full store refuses captures, and the
// executions they belong to run uncharged). Every node of the cluster holds a copy of every stream and
// bucket (replicas = nodes), so the per-node limit is the one to respect.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { subjectOf } from "./findings.mjs";
import { isAgenticService, workspaceDirOf } from "./workloads.mjs";

/**
 * @param {object[]} docs rendered objects of one overlay
 * @param {import("./findings.mjs").Findings} findings
 * @param {{ repoRoot: string, configs: Map<string, Record<string, unknown>> }} options
 */
export function checkJetStreamBudget(docs, findings, { repoRoot, configs }) {
  const natsConfig = docs.find((d) => d.kind === "ConfigMap" && /^nats-config/.test(d.metadata.name) && d.data?.["nats.conf"]);
  const fileStore = natsConfig && sizeBytes(/^\s*max_file_store:\s*(\S+)/m.exec(natsConfig.data["nats.conf"])?.[1]);
  if (!fileStore) return;

  /** @type {Map<string, { maxBytes: number, by: string }>} */
  const limits = new Map();
  for (const deployment of docs.filter(isAgenticService)) {
    const name = deployment.metadata.name;
    const footprint = footprintOf(repoRoot, name, configs.get(name));
    if (footprint === undefined) continue;
    for (const { name: stream, maxBytes, kind } of footprint) {
      if (!(maxBytes > 0)) {
        findings.error(subjectOf(deployment), `${kind} ${stream} has no byte limit: every stream and bucket needs one`);
        continue;
      }
      const known = limits.get(stream);
      if (!known || maxBytes > known.maxBytes) limits.set(stream, { maxBytes, by: name });
    }
  }
  if (limits.size === 0) return;
  const sum = [...limits.values()].reduce((total, l) => total + l.maxBytes, 0);
  const parts = [...limits].map(([stream, l]) => `${stream} ${l.maxBytes} (${l.by})`).join(", ");
  if (sum >= fileStore) {
    findings.error(
      subjectOf(natsConfig),
      `the streams and buckets may hold ${sum} bytes together (${parts}), not below the NATS server's max_file_store ` +
        `(${fileStore} bytes): full buckets would take the room the EXECUTIONS stream is promised, and captures would be refused. ` +
        "Lower a limit (NATS_STREAM_MAX_BYTES, RECOMMENDATION_STORE_MAX_BYTES, AGENT_PREFERENCES_MAX_BYTES) or raise max_file_store",
    );
  }
  for (const nats of docs.filter((d) => d.kind === "StatefulSet" && d.metadata.name === "nats")) {
    for (const claim of nats.spec?.volumeClaimTemplates ?? []) {
      const size = quantityBytes(claim.spec?.resources?.requests?.storage);
      if (size !== undefined && size <= fileStore)
        findings.error(
          subjectOf(nats),
          `volume ${claim.metadata?.name} (${size} bytes) must be larger than max_file_store (${fileStore} bytes)`,
        );
    }
  }
}

/** A service's streams and buckets from its compiled config, or undefined when it creates none (or is not built). */
function footprintOf(repoRoot, name, config) {
  const file = join(repoRoot, workspaceDirOf(name), "dist", "config.js");
  if (!config || !existsSync(file)) return undefined;
  const exported = createRequire(file)(file);
  return typeof exported.jetStreamFootprint === "function" ? exported.jetStreamFootprint(config) : undefined;
}

/** NATS config sizes ("8GB", "64MB", "1024") in bytes (the server counts in 1024s). */
export function sizeBytes(text) {
  const m = /^(\d+)\s*([KMGT]?)B?$/i.exec(String(text ?? ""));
  return m ? Number(m[1]) * 1024 ** "_KMGT".indexOf((m[2] || "_").toUpperCase()) : undefined;
}

/** Kubernetes binary and decimal quantities ("10Gi", "500M", "1024") in bytes. */
function quantityBytes(text) {
  const m = /^(\d+)(Ki|Mi|Gi|Ti|K|M|G|T)?$/.exec(String(text ?? ""));
  if (!m) return undefined;
  const units = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(m[1]) * (m[2] ? units[m[2]] : 1);
}
