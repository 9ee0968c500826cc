// Whether the EXECUTIONS stream's byte limit holds what the deployment can publish at its peak
// (docs/production-checklist.md, "Size the EXECUTIONS stream"). The stream refuses new messages
// when full, and every capture refused is work done and not charged, so its limit is sized from
// the keep and the peak rate, not left at a default:
//
//   NATS_STREAM_MAX_BYTES >= NATS_STREAM_KEEP_MS/1000 x peak executes/s x BYTES_PER_EXECUTE / FILL_AT_PEAK
//   peak executes/s = the executor autoscaler's maxReplicas x its agentic.dev/peak-executes-per-second-per-replica
import { subjectOf } from "./findings.mjs";

/** Stored bytes per execute (its capture with the usage item, and its route outcome): 5.8 MB measured for 2,700 executes. */
export const BYTES_PER_EXECUTE = 2150;

/**
 * The share of the limit an hour of peak may fill: at half full the ledger's trimmer stops waiting
 * out the keep window and AgenticStreamFilling fires, so the rest is the room an operator acts in.
 */
export const FILL_AT_PEAK = 0.5;

/** The executor autoscaler's annotation: the executes per second one executor replica is sized for at peak. */
export const PEAK_ANNOTATION = "agentic.dev/peak-executes-per-second-per-replica";

/** The smallest NATS_STREAM_MAX_BYTES that holds the keep window at `peakPerSecond`, at most FILL_AT_PEAK full. */
export function requiredStreamBytes({ keepMs, peakPerSecond }) {
  return Math.ceil(((keepMs / 1000) * peakPerSecond * BYTES_PER_EXECUTE) / FILL_AT_PEAK);
}

/**
 * @param {object[]} docs rendered objects of one overlay
 * @param {import("./findings.mjs").Findings} findings
 * @param {{ configs: Map<string, Record<string, unknown>> }} options
 */
export function checkStreamSizing(docs, findings, { configs }) {
  const hpa = docs.find(
    (d) =>
      d.kind === "HorizontalPodAutoscaler" && d.spec?.scaleTargetRef?.kind === "Deployment" && d.spec.scaleTargetRef.name === "executor",
  );
  const ledger = configs.get("ledger");
  // Without an autoscaler (development) the peak is whatever one replica does: nothing to size against.
  if (!hpa || ledger?.NATS_STREAM_MAX_BYTES === undefined || ledger.NATS_STREAM_KEEP_MS === undefined) return;
  const perReplica = Number(hpa.metadata?.annotations?.[PEAK_ANNOTATION]);
  if (!(perReplica > 0)) {
    findings.error(
      subjectOf(hpa),
      `annotation ${PEAK_ANNOTATION} is missing: say how many executes per second one executor is sized for, ` +
        "so the EXECUTIONS stream's byte limit can be checked against maxReplicas times that",
    );
    return;
  }
  const peakPerSecond = hpa.spec.maxReplicas * perReplica;
  const keepMs = Number(ledger.NATS_STREAM_KEEP_MS);
  const required = requiredStreamBytes({ keepMs, peakPerSecond });
  const limit = Number(ledger.NATS_STREAM_MAX_BYTES);
  if (limit < required)
    findings.error(
      "Deployment/ledger",
      `NATS_STREAM_MAX_BYTES (${limit}) is below ${required}: NATS_STREAM_KEEP_MS ${keepMs} ms at the executors' peak ` +
        `(maxReplicas ${hpa.spec.maxReplicas} x ${perReplica}/s = ${peakPerSecond} executes/s) x ${BYTES_PER_EXECUTE} bytes each, ` +
        `at most ${FILL_AT_PEAK * 100} % full; at its limit the stream refuses captures (docs/production-checklist.md)`,
    );
}
