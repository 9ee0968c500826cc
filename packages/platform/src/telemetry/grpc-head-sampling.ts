// Head sampling (head-sampling.ts) on both sides of a gRPC call. The grpc instrumentation wraps each
// generated client method and each registered server handler (with shimmer, which leaves the function
// it wrapped on the wrapper as `__original`); a call the sampler keeps goes through that wrapper as
// before, and one it leaves out calls the original, with its trace context still in the metadata.
import type { Client, ClientUnaryCall, handleUnaryCall, Metadata, Server } from "@grpc/grpc-js";
import { context, propagation, ROOT_CONTEXT, SpanKind, type TextMapGetter, type TextMapSetter } from "@opentelemetry/api";
import { runHeadSampled } from "./head-sampling";

/** Reads and writes trace context in gRPC metadata, as the grpc instrumentation does. */
const metadataGetter: TextMapGetter<Metadata> = {
  get: (metadata, key) => metadata.get(key).map(String),
  keys: (metadata) => Object.keys(metadata.getMap()),
};
const metadataSetter: TextMapSetter<Metadata> = { set: (metadata, key, value) => metadata.set(key, value) };

/** The function an instrumentation wrapped (shimmer's `__original`), or undefined when `fn` is not wrapped. */
function uninstrumented<F extends (...args: never[]) => unknown>(fn: F): F | undefined {
  const original = (fn as F & { __original?: F }).__original;
  return typeof original === "function" && original !== fn ? original : undefined;
}

/** The span name the grpc instrumentation gives a call of `path` ("/pkg.Service/Method"). */
function spanNameOf(path: string): string {
  return `grpc.${path.replace("/", "")}`;
}

/** A generated client's unary method as promisifyUnary calls it: (request, metadata, options, callback). */
type UnaryClientMethod = (this: Client, request: never, metadata: Metadata, ...rest: never[]) => ClientUnaryCall;

/**
 * `method` (a generated client's unary method, `path` on it) head-sampled: in a trace the sampler
 * keeps, the instrumented method as before; otherwise the method it wrapped, after writing the
 * untraced context's traceparent ("not sampled") into `metadata` as the instrumentation would have.
 */
export function headSampledClientMethod<M extends UnaryClientMethod>(method: M & { path?: string }): M {
  const untraced = uninstrumented(method);
  if (!untraced) return method;
  const spanName = spanNameOf(method.path ?? "");
  return function headSampled(this: Client, request: unknown, metadata: Metadata, ...rest: unknown[]) {
    return runHeadSampled(
      context.active(),
      spanName,
      SpanKind.CLIENT,
      () => Reflect.apply(method, this, [request, metadata, ...rest]) as ClientUnaryCall,
      () => {
        propagation.inject(context.active(), metadata, metadataSetter);
        return Reflect.apply(untraced, this, [request, metadata, ...rest]) as ClientUnaryCall;
      },
    );
  } as unknown as M;
}

/** The handler grpc-js keeps for each registered method (a private field the grpc instrumentation also wraps). */
type RegisteredHandlers = Map<string, { func: handleUnaryCall<unknown, unknown> }>;

/**
 * Makes every handler registered on `server` from now on head-sampled: a call whose trace the sampler
 * keeps (by its traceparent, or for a new root) runs the instrumented handler as before; any other
 * runs the handler the instrumentation wrapped, in the call's untraced context.
 */
export function headSampleServer(server: Server): void {
  const register = server.register;
  server.register = function registerHeadSampled(this: Server, name: string, ...rest: unknown[]) {
    const registered = Reflect.apply(register, this, [name, ...rest]) as boolean;
    const handler = (this as unknown as { handlers?: RegisteredHandlers }).handlers?.get(name);
    const traced = handler?.func;
    const untraced = traced && uninstrumented(traced);
    if (handler && traced && untraced) {
      const spanName = spanNameOf(name);
      handler.func = function headSampled(this: unknown, call, callback) {
        runHeadSampled(
          propagation.extract(ROOT_CONTEXT, call.metadata, metadataGetter),
          spanName,
          SpanKind.SERVER,
          () => traced.call(this, call, callback),
          () => untraced.call(this, call, callback),
        );
      };
    }
    return registered;
  } as Server["register"];
}
