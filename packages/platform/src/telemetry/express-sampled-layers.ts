// Express's layer wrappers entered only in a sampled trace. The express instrumentation wraps the
// handle of every middleware, router and route layer, and on every request each wrapper records the
// layer's path on the request, rebuilds the route and reads the layer's metadata before it asks
// whether to make a span at all; in a trace head sampling left out (nine in ten in production) no
// span is made, so all that is paid for nothing. Each wrapped handle is put behind a switch: in a
// recording trace the wrapper as before, otherwise the handle it wrapped.
import { trace } from "@opentelemetry/api";
import type { ExpressInstrumentation } from "@opentelemetry/instrumentation-express";

type Handle = ((...args: unknown[]) => unknown) & { __original?: Handle } & Record<string, unknown>;
interface Layer {
  handle: Handle;
}

/** `layer`'s handle as wrapped by the instrumentation, switched by whether the active span records. */
function enterOnlyWhenRecording(layer: Layer): void {
  const traced = layer.handle;
  const untraced = traced.__original;
  // Error handlers (four parameters) are left unwrapped by the instrumentation, and so here.
  if (typeof untraced !== "function" || untraced === traced) return;
  // Three parameters: express's router tells a request handler from an error handler by its length.
  const handle = function sampledOnly(this: unknown, _req: unknown, _res: unknown, _next: unknown) {
    return Reflect.apply(trace.getActiveSpan()?.isRecording() ? traced : untraced, this, arguments) as unknown;
  };
  // A mounted router's handle carries its state (stack, params), which express reads through the layer.
  for (const key in untraced) {
    Object.defineProperty(handle, key, {
      enumerable: true,
      get: () => untraced[key],
      set: (value: unknown) => (untraced[key] = value),
    });
  }
  layer.handle = handle as Handle;
}

/** `instrumentation` with each layer it patches from now on entered only in a recording trace. */
export function expressLayersOnlyWhenSampled<I extends ExpressInstrumentation>(instrumentation: I): I {
  // The instrumentation's own hook for each layer it patches (a private method: the test of this
  // file fails, rather than the switch silently falling away, if a new version renames it).
  const patchable = instrumentation as unknown as { _applyPatch?: (layer: Layer, path?: string) => void };
  const applyPatch = patchable._applyPatch;
  if (typeof applyPatch !== "function") return instrumentation;
  patchable._applyPatch = function (this: unknown, layer: Layer, path?: string) {
    Reflect.apply(applyPatch, this, [layer, path]);
    enterOnlyWhenRecording(layer);
  };
  return instrumentation;
}
