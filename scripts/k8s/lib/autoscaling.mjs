// Whether the executor's autoscaler scales on what makes an executor busy and removes executors no
// faster than they drain. An executor waits on vendors, so CPU says little: it scales on
// executor_executions_in_flight (a Pods metric, served by prometheus-adapter). A removed executor
// finishes its executions for up to its terminationGracePeriodSeconds; scale-down takes one pod per
// period of at least that long, so the fleet never drains several executors' work at once.
import { subjectOf } from "./findings.mjs";

/** The custom metric the executor scales on (declared in services/executor/src/metrics.ts). */
export const EXECUTOR_SCALING_METRIC = "executor_executions_in_flight";

/**
 * @param {object[]} docs rendered objects of one overlay
 * @param {import("./findings.mjs").Findings} findings
 */
export function checkExecutorAutoscaler(docs, findings) {
  const hpa = docs.find(
    (d) =>
      d.kind === "HorizontalPodAutoscaler" && d.spec?.scaleTargetRef?.kind === "Deployment" && d.spec.scaleTargetRef.name === "executor",
  );
  const executor = docs.find((d) => d.kind === "Deployment" && d.metadata?.name === "executor");
  if (!hpa || !executor) return;
  const subject = subjectOf(hpa);
  const scalesOnInFlight = (hpa.spec.metrics ?? []).some((m) => m.type === "Pods" && m.pods?.metric?.name === EXECUTOR_SCALING_METRIC);
  if (!scalesOnInFlight)
    findings.error(
      subject,
      `must scale on the Pods metric ${EXECUTOR_SCALING_METRIC} (executions in flight), not on CPU alone: an executor waits on vendors`,
    );
  const grace = executor.spec?.template?.spec?.terminationGracePeriodSeconds ?? 30;
  const down = hpa.spec.behavior?.scaleDown;
  const policies = down?.policies ?? [];
  const paced =
    policies.length > 0 &&
    down.selectPolicy !== "Max" &&
    policies.every((p) => p.type === "Pods" && p.value === 1 && p.periodSeconds >= grace);
  if (down?.selectPolicy === "Disabled") return;
  if (!paced)
    findings.error(
      subject,
      `behavior.scaleDown must remove one executor per period of at least its terminationGracePeriodSeconds (${grace} s) ` +
        "(policies: [{type: Pods, value: 1, periodSeconds: >= grace}]), so executors drain one at a time",
    );
}
