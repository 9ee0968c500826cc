// PRODUCER and CONSUMER spans for JetStream messages (OpenTelemetry messaging conventions), so a
// message's effects join the trace of the request that published it.
import { SpanKind, SpanStatusCode, context, trace, type Span } from "@opentelemetry/api";
import type { JsMsg, MsgHdrs } from "nats";
import { contextFromHeaders, traceHeaders } from "./trace-headers";

const tracer = trace.getTracer("@agentic/platform/bus");

function endSpan<T>(span: Span, run: () => Promise<T>): Promise<T> {
  return run().then(
    (value) => {
      span.end();
      return value;
    },
    (err: unknown) => {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      span.end();
      throw err;
    },
  );
}

/**
 * Runs `publish` inside a PRODUCER span "<subject> publish", handing it headers that carry the
 * span's context (plus `base` entries such as Nats-Msg-Id).
 */
export function withProducerSpan<T>(subject: string, base: Record<string, string>, publish: (headers: MsgHdrs) => Promise<T>): Promise<T> {
  const span = tracer.startSpan(`${subject} publish`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      "messaging.system": "nats",
      "messaging.destination.name": subject,
      "messaging.operation.type": "publish",
      ...(base["Nats-Msg-Id"] ? { "messaging.message.id": base["Nats-Msg-Id"] } : {}),
    },
  });
  return context.with(trace.setSpan(context.active(), span), () => endSpan(span, () => publish(traceHeaders(base))));
}

/**
 * Runs `handle` inside a CONSUMER span "<subject> process" whose parent is the publisher's span.
 * A rejection marks the span as an error and is rethrown (the caller naks); `handle` may add
 * attributes or an error status through `trace.getActiveSpan()`.
 */
export function withConsumerSpan<T>(msg: JsMsg, consumerName: string, handle: () => Promise<T>): Promise<T> {
  const parent = contextFromHeaders(msg.headers as MsgHdrs | undefined);
  const span = tracer.startSpan(
    `${msg.subject} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "nats",
        "messaging.destination.name": msg.subject,
        "messaging.operation.type": "process",
        "messaging.consumer.group.name": consumerName,
        "messaging.message.id": msg.headers?.get("Nats-Msg-Id") ?? "",
        "messaging.nats.delivery_count": msg.info.redeliveryCount,
      },
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), () => endSpan(span, handle));
}
