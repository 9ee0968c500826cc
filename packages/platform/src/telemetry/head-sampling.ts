// Head sampling decided before the HTTP instrumentation runs. OpenTelemetry's http instrumentation
// wraps http.Server.prototype.emit and, for every request, builds its attributes, enters a context
// and patches the request's and the response's listener methods before the sampler is even asked;
// with production's 10 % sampling, nine requests in ten paid all that for a span nobody keeps
// (about a quarter of the gateway's CPU per recommend, docs/performance.md). Here the sampler that
// the tracer provider uses is asked first:
// - kept: the request goes through the instrumented emit as before, and the tracer gets the very
//   trace id the sampler was asked about (a one-shot preset, consumed by the request's root span),
//   so the instrumentation's own sampling of that span decides the same;
// - left out: the request goes through the emit the instrumentation wrapped, in a context holding
//   only its trace context (the caller's trace id, or a new one, and a fresh span id, not sampled).
//   Logs and error bodies still name its trace id, and every gRPC call it makes still carries a
//   traceparent that says "not sampled", so no service downstream samples it on its own.
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
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

/** Which way a request goes: traced (with the trace id to preset, for a root), or in an untraced context. */
type Decision = { traced: true; rootTraceId?: string } | { traced: false; context: Context };

function decide(sampling: HeadSampling, method: string | undefined, headers: IncomingHttpHeaders): Decision {
  const parent = headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers);
  const parentSpan = trace.getSpanContext(parent);
  const hasParent = parentSpan !== undefined && isSpanContextValid(parentSpan);
  const traceId = hasParent ? parentSpan.traceId : sampling.ids.generateTraceId();
  const { decision } = sampling.sampler.shouldSample(parent, traceId, method ?? "HTTP", SpanKind.SERVER, {}, []);
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
 * Emits one 'request' on `server`: through `tracedEmit` (the instrumented emit) when head sampling
 * keeps it or tracing is off, else untraced (see above). For a server's own `emit` to call.
 */
export function emitRequestHeadSampled(server: Server, tracedEmit: Server["emit"], req: IncomingMessage, res: ServerResponse): boolean {
  const sampling = installed;
  if (!sampling) return Reflect.apply(tracedEmit, server, ["request", req, res]) as boolean;
  const decision = decide(sampling, req.method, req.headers);
  if (!decision.traced) {
    return context.with(decision.context, () => Reflect.apply(sampling.uninstrumentedEmit, server, ["request", req, res]) as boolean);
  }
  // The instrumentation starts the request's span synchronously inside emit: that root span takes the preset id.
  sampling.ids.presetNext(decision.rootTraceId);
  try {
    return Reflect.apply(tracedEmit, server, ["request", req, res]) as boolean;
  } finally {
    sampling.ids.presetNext(undefined);
  }
}
