// Incoming HTTP requests a service answers without a trace: those that cost less to answer than a
// span costs to make (the gateway's catalog reads answered from memory). The tracing preload asks
// here for every request; the service registers what it answers so. Kept on globalThis, so the
// preload's copy of this module and the service's always share one list.
import type { IncomingMessage } from "node:http";

type UntracedRequest = (req: IncomingMessage) => boolean;

const KEY = Symbol.for("agentic.telemetry.untracedRequests");
const registry = globalThis as typeof globalThis & { [KEY]?: UntracedRequest[] };

/** Leaves the requests `predicate` says true for untraced (no span, no trace context read) until the returned function is called. */
export function untraceRequests(predicate: UntracedRequest): () => void {
  const predicates = (registry[KEY] ??= []);
  predicates.push(predicate);
  return () => {
    const at = predicates.indexOf(predicate);
    if (at >= 0) predicates.splice(at, 1);
  };
}

/** Whether a registered predicate leaves `req` untraced. */
export function isUntracedRequest(req: IncomingMessage): boolean {
  const predicates = registry[KEY];
  return predicates !== undefined && predicates.some((untraced) => untraced(req));
}
