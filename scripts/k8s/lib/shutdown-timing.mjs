// Whether a rollout can stop the executor and the gateway without cutting an execution: the timings
// each service derives from the execution budget (their compiled config.js) against the rendered
// Deployments' terminationGracePeriodSeconds and preStop sleep.
//   executor: grace >= preStop + SHUTDOWN_DEADLINE_MS, and SHUTDOWN_DEADLINE_MS >= minShutdownDeadlineMs
//   gateway:  EXECUTE_DEADLINE_MS > the executor's executeAnswerBoundMs, and grace >= preStop + its shutdownDeadlineMs
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** The functions of a service's compiled config; throws, saying how to build it, when it is missing. */
export function compiledConfig(repoRoot, dir) {
  const file = join(repoRoot, dir, "dist", "config.js");
  if (!existsSync(file)) throw new Error(`${dir}/dist/config.js is not built: run npx turbo run build --output-logs=errors-only`);
  return createRequire(file)(file);
}

/** Milliseconds of the server container's `preStop: exec: sleep N` (0 without one). */
export function preStopSleepMs(deployment) {
  const server = (deployment.spec?.template?.spec?.containers ?? []).find((c) => c.name === "server");
  const command = server?.lifecycle?.preStop?.exec?.command ?? [];
  const at = command.indexOf("sleep");
  return at >= 0 ? Number(command[at + 1]) * 1000 : 0;
}

/** terminationGracePeriodSeconds in ms (Kubernetes' default 30 s when unset). */
export function graceMs(deployment) {
  return (deployment.spec?.template?.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
}

/**
 * The problems of one rendered overlay, as sentences naming the settings (empty when it holds).
 * @param {object[]} docs rendered objects
 * @param {Map<string, Record<string, unknown>>} configs each service's environment as its configSchema parses it
 * @param {{ executor: object, gateway: object }} derive the compiled config modules of both
 */
export function shutdownTimingProblems(docs, configs, derive) {
  const problems = [];
  const deployment = (name) => docs.find((d) => d.kind === "Deployment" && d.metadata?.name === name);
  const executor = configs.get("executor");
  const gateway = configs.get("gateway");
  const executorDeployment = deployment("executor");
  const gatewayDeployment = deployment("gateway");

  if (executor && executorDeployment) {
    const min = derive.executor.minShutdownDeadlineMs(executor);
    if (executor.SHUTDOWN_DEADLINE_MS < min)
      problems.push(
        `executor SHUTDOWN_DEADLINE_MS ${executor.SHUTDOWN_DEADLINE_MS} ms is below ${min} ms (budget + settlement + results + margin)`,
      );
    const need = preStopSleepMs(executorDeployment) + executor.SHUTDOWN_DEADLINE_MS;
    if (graceMs(executorDeployment) < need)
      problems.push(
        `executor terminationGracePeriodSeconds ${graceMs(executorDeployment) / 1000} s is below preStop sleep + SHUTDOWN_DEADLINE_MS = ${need / 1000} s`,
      );
  }
  if (executor && gateway) {
    const answer = derive.executor.executeAnswerBoundMs(executor);
    if (gateway.EXECUTE_DEADLINE_MS <= answer)
      problems.push(
        `gateway EXECUTE_DEADLINE_MS ${gateway.EXECUTE_DEADLINE_MS} ms must exceed the executor's longest answer, ${answer} ms`,
      );
  }
  if (gateway && gatewayDeployment) {
    const need = preStopSleepMs(gatewayDeployment) + derive.gateway.shutdownDeadlineMs(gateway);
    if (graceMs(gatewayDeployment) < need)
      problems.push(
        `gateway terminationGracePeriodSeconds ${graceMs(gatewayDeployment) / 1000} s is below preStop sleep + EXECUTE_DEADLINE_MS + 10 s = ${need / 1000} s`,
      );
  }
  return problems;
}
