// A message published inside a PRODUCER span is processed inside a CONSUMER span of the same
// trace, parented by the producer, across a real nats-server. A test of @agentic/platform's message
// spans kept here: it needs startNatsServer, and the platform cannot depend on this package (which depends on it).
import { context, propagation, trace, SpanKind } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { AckPolicy, connect, type NatsConnection } from "nats";
import { withConsumerSpan, withProducerSpan } from "@agentic/platform";
import { startNatsServer, type NatsServerHandle } from "../src/nats-server";

describe("message spans", () => {
  const exporter = new InMemorySpanExporter();
  let nats: NatsServerHandle;
  let nc: NatsConnection;

  beforeAll(async () => {
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    await (await nc.jetstreamManager()).streams.add({ name: "T", subjects: ["t.>"] });
  });
  afterAll(async () => {
    await nc.close();
    await nats.stop();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it("links the consumer span to the producer span", async () => {
    const js = nc.jetstream();
    const root = trace.getTracer("test").startSpan("request");
    await context.with(trace.setSpan(context.active(), root), () =>
      withProducerSpan("t.settled", { "Nats-Msg-Id": "hold_1" }, (headers) =>
        js.publish("t.settled", new Uint8Array([1]), { headers, msgID: "hold_1" }),
      ),
    );
    root.end();

    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add("T", { durable_name: "c", ack_policy: AckPolicy.Explicit });
    const msg = await (await js.consumers.get("T", "c")).next({ expires: 5_000 });
    expect(msg).not.toBeNull();
    await withConsumerSpan(msg!, "c", async () => msg!.ack());

    const spans = exporter.getFinishedSpans();
    const producer = spans.find((s) => s.kind === SpanKind.PRODUCER)!;
    const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER)!;
    expect(producer.name).toBe("t.settled publish");
    expect(consumer.name).toBe("t.settled process");
    expect(producer.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(consumer.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(consumer.attributes).toMatchObject({ "messaging.system": "nats", "messaging.consumer.group.name": "c" });
  });

  it("marks a failing handler's span as an error and rethrows", async () => {
    const js = nc.jetstream();
    await js.publish("t.other", new Uint8Array([2]));
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add("T", { durable_name: "d", ack_policy: AckPolicy.Explicit, filter_subject: "t.other" });
    const msg = (await (await js.consumers.get("T", "d")).next({ expires: 5_000 }))!;
    await expect(withConsumerSpan(msg, "d", async () => Promise.reject(new Error("store down")))).rejects.toThrow("store down");
    const span = exporter.getFinishedSpans().find((s) => s.name === "t.other process")!;
    expect(span.status.code).toBe(2);
  });
});
