// The gateway's backend clients, with every "unavailable" failure naming the backend that is down,
// so a client reads "The ledger is unavailable; retry after 5 s." (503, Retry-After) instead of a
// bare error: a call that got no answer (refused, dropped, too slow) names the backend called (but
// an execute that reached its executor, whose outcome its route names instead); a
// backend's own UNAVAILABLE (the executor saying its ledger did not answer) names what the gateway's
// health checks see down. Every other error passes unchanged.
import { status as GrpcStatus } from "@grpc/grpc-js";
import { fromServiceError, isUnansweredCall, neverReachedServer } from "@agentic/platform";
import { backendUnavailable, UNAVAILABLE_CODE } from "../errors";
import type { BackendMonitor } from "./backend-monitor";

/**
 * Calls whose deadline can pass after they did their work (a provider call, a payment credited): a
 * timeout of theirs is a TIMEOUT (504, the outcome to be read or the call retried with its key),
 * not a backend being unavailable.
 */
const OUTCOME_UNKNOWN_ON_TIMEOUT: ReadonlySet<string> = new Set(["executor.execute", "ledger.topUpWithPayment", "ledger.grantCredits"]);
/**
 * Calls whose outcome is unknown as soon as they reached the backend: one that lost its connection
 * after it was sent may still finish and charge, so its route answers it (execute-call.ts: 504 naming
 * the execution to read), never as a 503 that invites a blind retry.
 */
const OUTCOME_UNKNOWN_ONCE_SENT: ReadonlySet<string> = new Set(["executor.execute"]);

function named(backend: string, method: string, err: unknown, monitor: BackendMonitor): unknown {
  if (isUnansweredCall(err)) {
    const call = `${backend}.${method}`;
    if (err.code === GrpcStatus.DEADLINE_EXCEEDED && OUTCOME_UNKNOWN_ON_TIMEOUT.has(call)) return err;
    if (OUTCOME_UNKNOWN_ONCE_SENT.has(call) && !neverReachedServer(err)) return err;
    return backendUnavailable([backend]);
  }
  const remote = fromServiceError(err);
  // A backend that says when to come back knows best.
  if (remote.code !== UNAVAILABLE_CODE || remote.details?.retryAfterSeconds !== undefined) return err;
  // The backend answered that one of its own dependencies is down: which one, the gateway's checks say.
  const down = monitor.unavailable().filter((name) => name !== backend);
  return down.length ? backendUnavailable(down, remote.message) : err;
}

/** `client` with each method's failures named as coming from `backend`. */
function namingFailures<C extends object>(backend: string, client: C, monitor: BackendMonitor): C {
  const wrapped: Record<string, unknown> = {};
  for (const [method, fn] of Object.entries(client)) {
    if (typeof fn !== "function" || method === "close") {
      wrapped[method] = fn;
      continue;
    }
    wrapped[method] = (...args: unknown[]) =>
      (fn as (...a: unknown[]) => Promise<unknown>)(...args).catch((err: unknown) => {
        throw named(backend, method, err, monitor);
      });
  }
  return wrapped as C;
}

/** Every client of `clients` naming its failures (the record's keys are the backends' names). */
export function nameUnavailableBackends<T extends { [K in keyof T]: object }>(clients: T, monitor: BackendMonitor): T {
  const entries = Object.entries(clients as Record<string, object>);
  return Object.fromEntries(entries.map(([backend, client]) => [backend, namingFailures(backend, client, monitor)])) as T;
}
