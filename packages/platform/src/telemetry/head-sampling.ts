// Head sampling decided before an instrumentation runs. OpenTelemetry's instrumentations do their
// work for every request and call before the sampler is even asked: the http one builds attributes,
// enters a context and patches the request's and the response's listener methods; the grpc one, on
// both sides of every call, starts a span, sets its attributes, parses the channel's target and
// wraps the callback and the metadata events. With production's 10 % sampling, nine in ten paid all
// that for a span nobody keeps (docs/performance.md). Here the sampler the tracer provider uses is
// asked first (runHeadSampled; grpc-head-sampling.ts applies it to gRPC calls):
// - kept: the request or call goes through the instrumentation as before, and the tracer gets the
//   very trace id the sampler was asked about (a one-shot preset, consumed by a root span), so the
//   instrumentation's own sampling of that span decides the same;
// - left out: it goes around the instrumentation, in a context holding only its trace context (the
//   caller's trace id, or a new one, and a fresh span id, not sampled). Logs and error bodies still
//   name its trace id, and every gRPC call it makes still carries a traceparent that says "not
//   sampled", so no service downstream samples it on its own.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { context, propagation, ROOT_CONTEXT, SpanKind, trace, TraceFlags, isSpanContextValid, type Context } from "@opentelemetry/api";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  RandomIdGenerator,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type IdGenerator,
  type Sampler,
} from "@opentelemetry/sdk-trace-base";

/**
 * The sampler OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG name, as the SDK builds it from them
 * (parentbased_always_on when unset or unknown; a missing or out-of-range ratio is 1).
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const ratio = () => new TraceIdRatioBasedSampler(env.OTEL_TRACES_SAMPLER_ARG?.trim() && arg >= 0 && arg <= 1 ? arg : 1);
  switch (env.OTEL_TRACES_SAMPLER?.trim()) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio();
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** Random ids, except a trace id set for the next root span (the one head sampling was asked about). */
export class PresetTraceIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private preset: string | undefined;

  /** The trace id the next root span gets (undefined: a random one). */
  presetNext(traceId: string | undefined): void {
    this.preset = traceId;
  }

  generateTraceId(): string {
    const preset = this.preset;
    this.preset = undefined;
    return preset ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

interface HeadSampling {
  sampler: Sampler;
  ids: PresetTraceIds;
  /** http.Server.prototype.emit as it was before the instrumentation wrapped it. */
  uninstrumentedEmit: Server["emit"];
}

let installed: HeadSampling | undefined;

/** Called by startTelemetry before it registers the instrumentations (so `emit` is still the original). */
export function installHeadSampling(sampling: HeadSampling): void {
  installed = sampling;
}

/** Which way a span goes: traced (with the trace id to preset, for a root), or in an untraced context. */
type Decision = { traced: true; rootTraceId?: string } | { traced: false; context: Context };

function decide(sampling: HeadSampling, parent: Context, spanName: string, kind: SpanKind): Decision {
  const parentSpan = trace.getSpanContext(parent);
  const hasParent = parentSpan !== undefined && isSpanContextValid(parentSpan);
  const traceId = hasParent ? parentSpan.traceId : sampling.ids.generateTraceId();
  const { decision } = sampling.sampler.shouldSample(parent, traceId, spanName, kind, {}, []);
  if (decision !== SamplingDecision.NOT_RECORD) return hasParent ? { traced: true } : { traced: true, rootTraceId: traceId };
  const untraced = {
    traceId,
    spanId: sampling.ids.generateSpanId(),
    traceFlags: TraceFlags.NONE,
    ...(hasParent && parentSpan.traceState ? { traceState: parentSpan.traceState } : {}),
  };
  return { traced: false, context: trace.setSpanContext(parent, untraced) };
}

/**
 * Asks the sampler about the span an instrumentation would start (`spanName`, `kind`, under `parent`),
 * then runs `traced` (the instrumented path) when it keeps it or tracing is off, or else `untraced`
 * in a context holding only the span's trace context, "not sampled" (see above).
 */
export function runHeadSampled<T>(parent: Context, spanName: string, kind: SpanKind, traced: () => T, untraced: () => T): T {
  const sampling = installed;
  if (!sampling) return traced();
  const decision = decide(sampling, parent, spanName, kind);
  if (!decision.traced) return context.with(decision.context, untraced);
  // The instrumentation starts its span synchronously inside `traced`: a root span takes the preset id.
  sampling.ids.presetNext(decision.rootTraceId);
  try {
    return traced();
  } finally {
    sampling.ids.presetNext(undefined);
  }
}

/**
 * Emits one 'request' on `server`: through `tracedEmit` (the instrumented emit) when head sampling
 * keeps it or tracing is off, else untraced (see above). For a server's own `emit` to call.
 */
export function emitRequestHeadSampled(server: Server, tracedEmit: Server["emit"], req: IncomingMessage, res: ServerResponse): boolean {
  const sampling = installed;
  if (!sampling) return Reflect.apply(tracedEmit, server, ["request", req, res]) as boolean;
  const parent = req.headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, req.headers);
  return runHeadSampled(
    parent,
    req.method ?? "HTTP",
    SpanKind.SERVER,
    () => Reflect.apply(tracedEmit, server, ["request", req, res]) as boolean,
    () => Reflect.apply(sampling.uninstrumentedEmit, server, ["request", req, res]) as boolean,
  );
}
