// RED metrics of gRPC servers (rate, errors, duration per method), on prom-client's default
// registry so one /metrics endpoint per process shows everything.
import { Histogram, register } from "prom-client";

/**
 * Latency buckets in seconds: sub-millisecond in-process hops up to the execute budget. An execute
 * may take up to 77 s (EXECUTION_BUDGET_MS 60 s plus its settlement), so the buckets go past 10 s
 * to 30, 60 and 90 s: without them every slow execute lands in +Inf and neither a latency SLO nor a
 * p99 can tell 11 s from 80 s.
 */
export const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 90];

/** Returns the metric registered under `name`, or registers it (safe when modules load twice). */
export function singleton<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

/** rpc_server_duration_seconds{rpc_service, rpc_method, rpc_grpc_status_code}: count = rate, status = errors. */
export const rpcServerDuration = singleton(
  "rpc_server_duration_seconds",
  () =>
    new Histogram({
      name: "rpc_server_duration_seconds",
      help: "Duration of gRPC server calls, by service, method and status code.",
      labelNames: ["rpc_service", "rpc_method", "rpc_grpc_status_code"] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
    }),
);

/** Splits "/agentic.ledger.v1.LedgerService/HoldCredits" into service and method. */
export function splitRpcPath(path: string): { service: string; method: string } {
  const [, service = "unknown", method = "unknown"] = path.split("/");
  return { service, method };
}
