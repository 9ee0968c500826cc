// Head sampling on both sides of a gRPC call: a call in a trace the sampler keeps goes through the grpc
// instrumentation as before; any other goes around it on the client and on the server, yet keeps its
// trace id and tells the next service "not sampled". Runs in its own process: the tracing preload
// patches grpc-js for good.
import { printProbeResult, runTracedChild } from "./traced-child.fixture";

const CALLER_SAMPLED = "0af7651916cd43dd8448eb211c80319c";
const CALLER_UNSAMPLED = "4bf92f3577b34da6a3ce929d0e0e4736";

/**
 * A relay service whose handler calls a sink service, both on servers from createGrpcServer and
 * called through promisifyUnary, as every service does. Each call records what it saw: the trace id
 * and flags of its context, whether the server instrumentation ran (it wraps the call's
 * sendMetadata), whether the client instrumentation ran (it reads the channel's target for each
 * call it traces), and the traceparent the sink received.
 */
const CHILD = `
const grpc = require("@grpc/grpc-js");
const { context, trace, ROOT_CONTEXT } = require("@opentelemetry/api");
const { bindServer, createClient, createGrpcServer, promisifyUnary, stopServer } = require("@agentic/platform");
let channelReads = 0;
const getChannel = grpc.Client.prototype.getChannel;
grpc.Client.prototype.getChannel = function () { channelReads++; return getChannel.call(this); };
const tracedClientCall = (start) => { const before = channelReads; const promise = start(); return [promise, channelReads > before]; };
const json = {
  requestStream: false, responseStream: false,
  requestSerialize: (v) => Buffer.from(JSON.stringify(v)), requestDeserialize: (b) => JSON.parse(b.toString()),
  responseSerialize: (v) => Buffer.from(JSON.stringify(v)), responseDeserialize: (b) => JSON.parse(b.toString()),
};
const relayDefinition = { hop: { path: "/probe.Relay/Hop", ...json } };
const sinkDefinition = { echo: { path: "/probe.Sink/Echo", ...json } };
const Relay = grpc.makeGenericClientConstructor(relayDefinition, "Relay");
const Sink = grpc.makeGenericClientConstructor(sinkDefinition, "Sink");
const serverInstrumented = (call) => call.sendMetadata.__wrapped === true;
(async () => {
  const sinkServer = createGrpcServer();
  sinkServer.addService(sinkDefinition, {
    echo: (call, callback) => callback(null, { traceparent: call.metadata.get("traceparent")[0] ?? "none", instrumented: serverInstrumented(call) }),
  });
  const sink = createClient(Sink, "127.0.0.1:" + (await bindServer(sinkServer, "127.0.0.1:0")));
  const echo = promisifyUnary(sink, sink.echo);
  const relayServer = createGrpcServer();
  relayServer.addService(relayDefinition, {
    hop: (call, callback) => {
      const span = trace.getActiveSpan()?.spanContext();
      const [answer, clientInstrumented] = tracedClientCall(() => echo({}));
      answer.then(
        (down) => callback(null, { traceId: span?.traceId, flags: span?.traceFlags, instrumented: serverInstrumented(call), clientInstrumented, sink: down }),
        (err) => callback(err),
      );
    },
  });
  const relay = createClient(Relay, "127.0.0.1:" + (await bindServer(relayServer, "127.0.0.1:0")));
  const hop = promisifyUnary(relay, relay.hop);
  const seen = [];
  const call = async (parent) => {
    const [answer, clientInstrumented] = context.with(parent, () => tracedClientCall(() => hop({})));
    seen.push({ ...(await answer), callerInstrumented: clientInstrumented });
  };
  const caller = (traceId, traceFlags) => trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: "b7ad6b7169203331", traceFlags, isRemote: true });
  await call(caller("${CALLER_SAMPLED}", 1));
  await call(caller("${CALLER_UNSAMPLED}", 0));
  for (let i = 0; i < 40; i++) await call(ROOT_CONTEXT);
  relay.close();
  sink.close();
  await Promise.all([stopServer(relayServer), stopServer(sinkServer)]);
  ${printProbeResult("seen")}
})();
`;

interface Seen {
  traceId: string;
  flags: number;
  instrumented: boolean;
  clientInstrumented: boolean;
  callerInstrumented: boolean;
  sink: { traceparent: string; instrumented: boolean };
}

/** What the child saw, and the exported spans' trace ids by kind. */
function run(env: NodeJS.ProcessEnv): { seen: Seen[]; spans: { server: string[]; client: string[] } } {
  const { result, spans, stderr } = runTracedChild<Seen[]>(CHILD, env);
  expect(stderr).not.toMatch(/Error/);
  const ofKind = (kind: number) => spans.filter((s) => s.kind === kind).map((s) => s.traceId);
  return { seen: result, spans: { server: ofKind(1), client: ofKind(2) } };
}

/** Every trace id of `traceIds`, twice (a relay's span and a sink's), sorted. */
const twiceEach = (traceIds: string[]) => [...traceIds, ...traceIds].sort();

describe("head sampling before the grpc instrumentation", () => {
  it("traces the calls of kept traces as before, and passes the others around it on both sides, still carrying 'not sampled'", () => {
    const { seen, spans } = run({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.5" });
    expect(seen).toHaveLength(42);
    const [callerSampled, callerUnsampled, ...roots] = seen as [Seen, Seen, ...Seen[]];
    const traced = { flags: 1, instrumented: true, clientInstrumented: true, callerInstrumented: true };
    const untraced = { flags: 0, instrumented: false, clientInstrumented: false, callerInstrumented: false };
    expect(callerSampled).toMatchObject({ traceId: CALLER_SAMPLED, ...traced, sink: { instrumented: true } });
    expect(callerUnsampled).toMatchObject({ traceId: CALLER_UNSAMPLED, ...untraced, sink: { instrumented: false } });
    // Roots: the ratio decides, and a kept one is traced under the very trace id head sampling was asked about.
    const kept = roots.filter((r) => r.flags === 1);
    const left = roots.filter((r) => r.flags === 0);
    expect(kept.length).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThan(0);
    for (const r of kept) expect(r).toMatchObject({ ...traced, sink: { instrumented: true } });
    for (const r of left) expect(r).toMatchObject({ ...untraced, traceId: expect.stringMatching(/^(?!0{32})[0-9a-f]{32}$/) });
    expect(new Set(roots.map((r) => r.traceId)).size).toBe(roots.length);
    // The sink hears each call's trace id and its decision.
    for (const r of [callerUnsampled, ...left]) expect(r.sink.traceparent).toMatch(new RegExp(`^00-${r.traceId}-[0-9a-f]{16}-00$`));
    for (const r of [callerSampled, ...kept]) expect(r.sink.traceparent).toMatch(new RegExp(`^00-${r.traceId}-[0-9a-f]{16}-01$`));
    // Exported: a client and a server span per hop of each kept trace, nothing of the others.
    const keptIds = [CALLER_SAMPLED, ...kept.map((r) => r.traceId)];
    expect(spans.server.sort()).toEqual(twiceEach(keptIds));
    expect(spans.client.sort()).toEqual(twiceEach(keptIds));
  });

  it("traces every call under the default sampler, but those of a trace its caller left out", () => {
    const { seen, spans } = run({ OTEL_TRACES_SAMPLER: "" });
    const [callerSampled, callerUnsampled, ...roots] = seen as [Seen, Seen, ...Seen[]];
    expect(callerUnsampled).toMatchObject({ traceId: CALLER_UNSAMPLED, flags: 0, instrumented: false, clientInstrumented: false });
    for (const r of [callerSampled, ...roots]) expect(r).toMatchObject({ flags: 1, instrumented: true, clientInstrumented: true });
    expect(spans.server).toHaveLength(2 * 41);
    expect(spans.client).toHaveLength(2 * 41);
  });
});
