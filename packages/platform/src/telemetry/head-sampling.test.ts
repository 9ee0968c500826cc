// Head sampling decided before the http instrumentation: a request it keeps is traced as before,
// one it leaves out never enters the instrumentation yet keeps a trace id and tells what it calls
// "not sampled". Runs a server in its own process: the tracing preload patches modules for good.
import { samplerFromEnv } from "./head-sampling";
import { printProbeResult, runTracedChild } from "./traced-child.fixture";
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";

const CALLER_SAMPLED = "0af7651916cd43dd8448eb211c80319c";
const CALLER_UNSAMPLED = "4bf92f3577b34da6a3ce929d0e0e4736";

/**
 * A server whose own emit goes through emitRequestHeadSampled (as the gateway's does). Its handler
 * prints what it saw: the active trace id and flags, whether the instrumentation ran (it leaves its
 * RPC metadata in the context), and the traceparent its own outgoing call carried.
 */
const CHILD = `
const http = require("node:http");
const net = require("node:net");
const { context, trace } = require("@opentelemetry/api");
const { getRPCMetadata } = require("@opentelemetry/core");
const { emitRequestHeadSampled } = require("@agentic/platform");
const seen = [];
const downstream = http.createServer((req, res) => res.end(req.headers.traceparent ?? "none"));
const server = http.createServer((req, res) => {
  const span = trace.getActiveSpan()?.spanContext();
  const instrumented = getRPCMetadata(context.active()) !== undefined;
  http.get({ host: "127.0.0.1", port: downstream.address().port, path: "/" }, (answer) => {
    let sent = "";
    answer.on("data", (chunk) => (sent += chunk));
    answer.on("end", () => {
      seen.push({ traceId: span?.traceId, flags: span?.traceFlags, instrumented, downstream: sent });
      res.end("ok");
    });
  });
});
const emit = server.emit;
server.emit = function (event, ...args) {
  return event === "request" ? emitRequestHeadSampled(this, emit, args[0], args[1]) : Reflect.apply(emit, this, [event, ...args]);
};
// A bare socket: an instrumented http client would send a traceparent of its own.
const get = (traceparent) => new Promise((resolve, reject) => {
  const socket = net.connect(server.address().port, "127.0.0.1");
  socket.on("data", () => undefined);
  socket.on("end", resolve);
  socket.on("error", reject);
  socket.end("GET /x HTTP/1.1\\r\\nHost: probe\\r\\nConnection: close\\r\\n" + (traceparent ? "traceparent: " + traceparent + "\\r\\n" : "") + "\\r\\n");
});
downstream.listen(0, "127.0.0.1", () => server.listen(0, "127.0.0.1", async () => {
  await get("00-${CALLER_SAMPLED}-b7ad6b7169203331-01");
  await get("00-${CALLER_UNSAMPLED}-b7ad6b7169203331-00");
  for (let i = 0; i < 40; i++) await get();
  server.close();
  downstream.close();
  ${printProbeResult("seen")}
}));
`;

interface Seen {
  traceId: string;
  flags: number;
  instrumented: boolean;
  downstream: string;
}

function run(env: NodeJS.ProcessEnv): { seen: Seen[]; serverSpanTraceIds: Set<string> } {
  const { result, spans, stderr } = runTracedChild<Seen[]>(CHILD, env);
  expect(stderr).not.toMatch(/Error/);
  // The request's own span is the SERVER span (kind 1).
  return { seen: result, serverSpanTraceIds: new Set(spans.filter((s) => s.kind === 1).map((s) => s.traceId)) };
}

describe("head sampling before the http instrumentation", () => {
  it("traces the requests it keeps as before, and passes the others around the instrumentation, still carrying 'not sampled'", () => {
    const { seen, serverSpanTraceIds } = run({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.5" });
    expect(seen).toHaveLength(42);
    const [callerSampled, callerUnsampled, ...roots] = seen as [Seen, Seen, ...Seen[]];
    // A caller's decision is followed, under the caller's trace id.
    expect(callerSampled).toMatchObject({ traceId: CALLER_SAMPLED, flags: 1, instrumented: true });
    expect(callerUnsampled).toMatchObject({ traceId: CALLER_UNSAMPLED, flags: 0, instrumented: false });
    // Without a caller, the ratio decides, and the tracer samples the very trace id head sampling was asked about.
    const kept = roots.filter((r) => r.flags === 1);
    const left = roots.filter((r) => r.flags === 0);
    expect(kept.length).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThan(0);
    for (const r of kept) expect(r.instrumented).toBe(true);
    for (const r of left) expect(r).toMatchObject({ instrumented: false, traceId: expect.stringMatching(/^(?!0{32})[0-9a-f]{32}$/) });
    expect([...serverSpanTraceIds].sort()).toEqual([CALLER_SAMPLED, ...kept.map((r) => r.traceId)].sort());
    // What such a request calls hears its trace id and "not sampled"; a kept one's calls hear "sampled".
    for (const r of [callerUnsampled, ...left]) expect(r.downstream).toMatch(new RegExp(`^00-${r.traceId}-[0-9a-f]{16}-00$`));
    for (const r of [callerSampled, ...kept]) expect(r.downstream).toMatch(new RegExp(`^00-${r.traceId}-[0-9a-f]{16}-01$`));
    // Every root got a trace id of its own.
    expect(new Set(roots.map((r) => r.traceId)).size).toBe(roots.length);
  });

  it("traces every request through the instrumentation under the default sampler, but one its caller left out", () => {
    const { seen, serverSpanTraceIds } = run({ OTEL_TRACES_SAMPLER: "" });
    const [callerSampled, callerUnsampled, ...roots] = seen as [Seen, Seen, ...Seen[]];
    expect(callerUnsampled).toMatchObject({ traceId: CALLER_UNSAMPLED, flags: 0, instrumented: false });
    for (const r of [callerSampled, ...roots]) expect(r).toMatchObject({ flags: 1, instrumented: true });
    expect(serverSpanTraceIds.size).toBe(41);
  });
});

describe("samplerFromEnv", () => {
  it("builds the sampler the variables name, as the SDK does", () => {
    expect(samplerFromEnv({}).toString()).toBe(new ParentBasedSampler({ root: new AlwaysOnSampler() }).toString());
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "always_off" }).toString()).toBe("AlwaysOffSampler");
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" }).toString()).toBe(
      new TraceIdRatioBasedSampler(0.25).toString(),
    );
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" }).toString()).toBe(
      new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) }).toString(),
    );
    // A missing or out-of-range ratio is 1, as in the SDK.
    for (const arg of [undefined, "", "2", "-1", "x"])
      expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: arg }).toString()).toBe(
        new TraceIdRatioBasedSampler(1).toString(),
      );
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "parentbased_always_off" }).toString()).toBe(
      new ParentBasedSampler({ root: new AlwaysOffSampler() }).toString(),
    );
  });
});
