// Starts OpenTelemetry tracing before the service loads anything else: the trace SDK alone (metrics
// are prom-client's, logs pino's), not the whole Node SDK, which loads every exporter and the metrics
// and logs SDKs into each process. Exporter (otlp, console or none), endpoint, protocol (http/protobuf
// or http/json) and head sampling (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG) come from the
// standard OTEL_* variables.
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { OTLPTraceExporter as OtlpJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { defaultResource, detectResources, envDetector, hostDetector, processDetector } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NoopSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { MongoDBInstrumentation } from "@opentelemetry/instrumentation-mongodb";
import { Server as HttpServer } from "node:http";
import { serviceVersion } from "../service-version";
import { expressLayersOnlyWhenSampled } from "./express-sampled-layers";
import { installHeadSampling, PresetTraceIds, samplerFromEnv } from "./head-sampling";

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

/** The exporter OTEL_TRACES_EXPORTER names (otlp by default, over OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL), or none. */
function traceExporter(env: NodeJS.ProcessEnv): SpanExporter | undefined {
  const name = (env.OTEL_TRACES_EXPORTER ?? "otlp").split(",")[0]?.trim() || "otlp";
  if (name === "none") return undefined;
  if (name === "console") return new ConsoleSpanExporter();
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  return protocol === "http/json" ? new OtlpJsonTraceExporter() : new OtlpProtobufTraceExporter();
}

/** Where spans go: batched to the exporter; without one, spans are still made (their trace ids are logged and recorded) and dropped. */
function spanProcessors(env: NodeJS.ProcessEnv): SpanProcessor[] {
  const exporter = exporterConfigured(env) ? traceExporter(env) : undefined;
  return [exporter ? new BatchSpanProcessor(exporter) : new NoopSpanProcessor()];
}

/** What can be stopped at shutdown (flushing the spans still batched). */
export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts tracing for `serviceName` (OTEL_SERVICE_NAME wins when set) and returns it for shutdown:
 * a Node tracer provider registered globally (AsyncLocalStorage context, W3C trace context and baggage).
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry | undefined {
  if (env.OTEL_SDK_DISABLED === "true") return undefined;
  // Taken before any instrumentation is made (making one wraps its module): a request head sampling
  // leaves out is emitted through it (head-sampling.ts).
  const uninstrumentedEmit = HttpServer.prototype.emit;
  env.OTEL_SERVICE_NAME ??= serviceName;
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
    // And only in a sampled trace: in one head sampling left out, no layer enters the instrumentation
    // (its request's own context already carries the trace id).
    express: () =>
      expressLayersOnlyWhenSampled(
        new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      ),
    grpc: () => new GrpcInstrumentation({ ignoreGrpcMethods: [/^grpc\.health\.v1\./, "Check", "Watch"] }),
    mongodb: () => new MongoDBInstrumentation(),
  };
  const instrumentations = Object.entries(factories)
    .filter(([name]) => !disabled.has(name))
    .map(([, create]) => create());
  // Sampler: OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (default parentbased_always_on), one
  // instance shared with the head-sampling decision an HTTP server can make before the instrumentation.
  const sampler = samplerFromEnv(env);
  const ids = new PresetTraceIds();
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(detectResources({ detectors: [envDetector, hostDetector, processDetector] })),
    spanProcessors: spanProcessors(env),
    sampler,
    idGenerator: ids,
  });
  provider.register();
  installHeadSampling({ sampler, ids, uninstrumentedEmit });
  registerInstrumentations({ instrumentations, tracerProvider: provider });
  return provider;
}
