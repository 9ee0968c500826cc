// JSON logs (pino) that carry the active trace and span ids, and never a secret.
import pino, { type Logger } from "pino";
import { trace } from "@opentelemetry/api";

export type { Logger };

/**
 * Creates the service's root logger; `LOG_LEVEL` sets the level (default info). Lines are written
 * to stdout asynchronously, so a slow log pipe never stalls request handling; pino flushes what
 * is pending when the process exits.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      // Authorization headers and keys must never reach a log line.
      redact: { paths: ["apiKey", "api_key", "*.apiKey", "*.authorization", "req.headers.authorization"], censor: "[redacted]" },
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { trace_id: traceId, span_id: spanId };
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    // A silent logger (tests) writes nothing, so it needs no stream of its own.
    level === "silent" ? undefined : pino.destination({ dest: 1, sync: false }),
  );
}
