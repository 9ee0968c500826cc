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
 * Calls whose outcome is unknown once they got no answer, so their routes answer it (a TIMEOUT naming
 * what to read), not as a backend being unavailable: "sent" ones as soon as they reached the backend
 * (an execute whose connection dropped may still finish and charge), "deadline" ones only when their
 * deadline passed after they may have done their work (a payment credited, a grant applied).
 */
const OUTCOME_UNKNOWN: ReadonlyMap<string, "deadline" | "sent"> = new Map([
  ["executor.execute", "sent"],
  ["ledger.topUpWithPayment", "deadline"],
  ["ledger.grantCredits", "deadline"],
]);

function named(backend: string, method: string, err: unknown, monitor: BackendMonitor): unknown {
  if (isUnansweredCall(err)) {
    const unknown = OUTCOME_UNKNOWN.get(`${backend}.${method}`);
    if (unknown && err.code === GrpcStatus.DEADLINE_EXCEEDED) return err;
    if (unknown === "sent" && !neverReachedServer(err)) return err;
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
