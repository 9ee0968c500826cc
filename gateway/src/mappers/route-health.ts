// A route's live health (router GetRouteHealth) as the `health` object of a route entry: what the
// router learned from recent executions. Unknown figures are null, so the shape never changes.
import type { RouteHealth } from "@agentic/proto/router/v1";

export function toRouteHealthEntry(h: RouteHealth) {
  return {
    successRate: h.successRate ?? null,
    p50LatencyMs: h.p50Ms ?? null,
    p95LatencyMs: h.p95Ms ?? null,
    breakerState: h.breakerState,
    lastFailureAt: h.lastFailureAt ?? null,
    observations: h.observations,
  };
}

export type RouteHealthEntry = ReturnType<typeof toRouteHealthEntry>;
