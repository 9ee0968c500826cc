// What every service process starts with, in one place so each main.ts holds only what is its own:
// the config (refused by name when invalid), the logger, the lifecycle that stops on SIGTERM and
// SIGINT (telemetry flushed last), and the Prometheus port.
import type { z } from "zod";
import { loadConfig } from "./config";
import { Lifecycle } from "./lifecycle";
import { createLogger, type Logger } from "./logger";
import { startMetricsServer, type MetricsServer } from "./metrics/metrics-server";
import { shutdownTelemetryIfLoaded } from "./telemetry/shutdown";

export interface ServiceProcess<C> {
  config: C;
  logger: Logger;
  life: Lifecycle;
  /** The metrics port's server, when the service has one. */
  metrics?: MetricsServer;
}

export interface ProcessOptions<C> {
  /** How long the stop hooks may take in all before the process exits anyway (fixed, or derived from the config). */
  deadlineMs: number | ((config: C) => number);
  /** The port to serve /metrics on; undefined serves none. */
  metricsPort: (config: C) => number | undefined;
}

export async function startProcess<S extends z.ZodType<{ LOG_LEVEL?: string }>>(
  service: string,
  schema: S,
  opts: ProcessOptions<z.infer<S>>,
): Promise<ServiceProcess<z.infer<S>>> {
  const config = loadConfig(schema);
  const logger = createLogger(service, config.LOG_LEVEL);
  const deadlineMs = typeof opts.deadlineMs === "function" ? opts.deadlineMs(config) : opts.deadlineMs;
  const life = new Lifecycle({ deadlineMs, logger });
  life.listen(["SIGTERM", "SIGINT"]);
  life.onStop("telemetry", shutdownTelemetryIfLoaded);
  const port = opts.metricsPort(config);
  const metrics = port === undefined ? undefined : life.closing("metrics", await startMetricsServer(port));
  return { config, logger, life, metrics };
}
