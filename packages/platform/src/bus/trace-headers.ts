// W3C trace context carried in NATS message headers, so a consumer's span joins the publisher's trace.
import { context, propagation, type Context } from "@opentelemetry/api";
import { headers as natsHeaders, type MsgHdrs } from "nats";

/** Returns headers holding the active trace context (plus `base` entries). */
export function traceHeaders(base: Record<string, string> = {}): MsgHdrs {
  const h = natsHeaders();
  for (const [k, v] of Object.entries(base)) h.set(k, v);
  propagation.inject(context.active(), h, { set: (carrier, key, value) => carrier.set(key, value) });
  return h;
}

/** Extracts the trace context a publisher put in `h` (the root context when absent). */
export function contextFromHeaders(h: MsgHdrs | undefined): Context {
  if (!h) return context.active();
  return propagation.extract(context.active(), h, {
    get: (carrier, key) => (carrier.has(key) ? carrier.get(key) : undefined),
    keys: (carrier) => [...carrier.keys()],
  });
}
