// Starts OpenTelemetry before the service loads anything else. Exporter, endpoint, protocol
// (http/protobuf or http/json) and sampling come from the standard OTEL_* variables.
import { NodeSDK } from "@opentelemetry/sdk-node";
import { NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { MongoDBInstrumentation } from "@opentelemetry/instrumentation-mongodb";
import { serviceVersion } from "../service-version";

/** HTTP paths that probes and scrapers hit; never traced. */
const UNTRACED_HTTP_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** True when some exporter is configured; without one, spans are made (for trace ids) but dropped. */
function exporterConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_TRACES_EXPORTER || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** OTEL_RESOURCE_ATTRIBUTES with service.version added from SERVICE_VERSION, unless it names one already. */
function withServiceVersion(env: NodeJS.ProcessEnv): string {
  const attributes = env.OTEL_RESOURCE_ATTRIBUTES ?? "";
  if (/(^|,)\s*service\.version\s*=/.test(attributes)) return attributes;
  return [attributes, `service.version=${encodeURIComponent(serviceVersion(env))}`].filter(Boolean).join(",");
}

/**
 * Starts the SDK for `serviceName` (OTEL_SERVICE_NAME wins when set) and returns it for shutdown.
 * Metrics are served by prom-client on /metrics, so the SDK's metric and log exporters default to none.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): NodeSDK | undefined {
  if (env.OTEL_SDK_DISABLED === "true") return undefined;
  env.OTEL_SERVICE_NAME ??= serviceName;
  env.OTEL_METRICS_EXPORTER ??= "none";
  env.OTEL_LOGS_EXPORTER ??= "none";
  env.OTEL_RESOURCE_ATTRIBUTES = withServiceVersion(env);
  // OTEL_NODE_DISABLED_INSTRUMENTATIONS (as in auto-instrumentations-node): e.g. "express,mongodb".
  const disabled = new Set(
    (env.OTEL_NODE_DISABLED_INSTRUMENTATIONS ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
  // Built only when not disabled: an instrumentation patches its module as soon as it is constructed,
  // so leaving it out of the SDK's list afterwards would not turn it off.
  const factories: Record<string, () => HttpInstrumentation | ExpressInstrumentation | GrpcInstrumentation | MongoDBInstrumentation> = {
    http: () =>
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_HTTP_PATHS.has((req.url ?? "").split("?")[0] ?? ""),
      }),
    // Route handlers only: a span per middleware and router layer is noise (and costs per request).
    express: () => new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
    grpc: () => new GrpcInstrumentation({ ignoreGrpcMethods: [/^grpc\.health\.v1\./, "Check", "Watch"] }),
    mongodb: () => new MongoDBInstrumentation(),
  };
  const instrumentations = Object.entries(factories)
    .filter(([name]) => !disabled.has(name))
    .map(([, create]) => create());
  const sdk = new NodeSDK({
    spanProcessors: exporterConfigured(env) ? undefined : [new NoopSpanProcessor()],
    instrumentations,
  });
  sdk.start();
  return sdk;
}
