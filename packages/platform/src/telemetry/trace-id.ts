// The active trace id, for usage items and error responses that point back to a trace.
import { trace, isSpanContextValid } from "@opentelemetry/api";

/** Returns the active span's trace id, or "" when there is no valid one. */
export function currentTraceId(): string {
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && isSpanContextValid(ctx) ? ctx.traceId : "";
}
