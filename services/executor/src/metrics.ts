// The executor's business metrics (the domain's ExecutionMetrics port), on prom-client's default
// registry (served with the process and RPC metrics on METRICS_PORT): provider attempts and their
// latency per route, credits charged, holds placed and released, settlements JetStream never
// acknowledged, payments the paid rails made, and per-token charges that were not the vendor's usage.
import { Counter, Histogram } from "prom-client";
import { LATENCY_BUCKETS_SECONDS, singleton } from "@agentic/platform";
import type { ExecutionMetrics } from "./domain/ports";

const attempts = singleton(
  "executor_provider_attempts_total",
  () =>
    new Counter({
      name: "executor_provider_attempts_total",
      help: "Provider attempts by route and outcome (ok, timeout, http_5xx, http_4xx, payment, network, invalid_response).",
      labelNames: ["route_key", "outcome"] as const,
    }),
);
const duration = singleton(
  "executor_provider_duration_seconds",
  () =>
    new Histogram({
      name: "executor_provider_duration_seconds",
      help: "Duration of provider calls (payment handshake included), by route.",
      labelNames: ["route_key"] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
    }),
);
const charged = singleton(
  "executor_credits_charged_total",
  () =>
    new Counter({
      name: "executor_credits_charged_total",
      help: "Credits captured for successful executions (1000 credits = 1 USD), by route.",
      labelNames: ["route_key"] as const,
    }),
);
const holdsPlaced = singleton(
  "executor_holds_placed_total",
  () =>
    new Counter({
      name: "executor_holds_placed_total",
      help: "Credit holds placed before provider calls, by route.",
      labelNames: ["route_key"] as const,
    }),
);
const holdsReleased = singleton(
  "executor_holds_released_total",
  () =>
    new Counter({
      name: "executor_holds_released_total",
      help: "Credit holds released after failed provider calls, by route.",
      labelNames: ["route_key"] as const,
    }),
);
const unconfirmed = singleton(
  "executor_settlements_unconfirmed_total",
  () =>
    new Counter({
      name: "executor_settlements_unconfirmed_total",
      help: "Captures or releases JetStream never acknowledged (their holds expire unsettled), by route.",
      labelNames: ["route_key"] as const,
    }),
);

const meteredAnomalies = singleton(
  "executor_metered_charge_anomalies_total",
  () =>
    new Counter({
      name: "executor_metered_charge_anomalies_total",
      help: "Per-token charges that were not the vendor's usage, by route and kind (usage_over_hold: the vendor billed more than was held, clamped to the hold, our loss; usage_missing: no usage reported, the hold was charged). Alert on any.",
      labelNames: ["route_key", "kind"] as const,
    }),
);

const railPayments = singleton(
  "executor_rail_payments_total",
  () =>
    new Counter({
      name: "executor_rail_payments_total",
      help: "Payments the paid rails made to sellers, by rail (x402, mpp) and settlement (settled, unconfirmed: signed and answered 2xx without a settlement proof).",
      labelNames: ["rail", "settlement"] as const,
    }),
);

/** The ExecutionMetrics port on the process-wide registry; each series is declared once, whatever the number of executors. */
export function createExecutorMetrics(): ExecutionMetrics {
  return {
    attempt({ routeKey, outcome, durationMs }) {
      attempts.inc({ route_key: routeKey, outcome });
      duration.observe({ route_key: routeKey }, durationMs / 1000);
    },
    holdPlaced: (routeKey) => holdsPlaced.inc({ route_key: routeKey }),
    holdReleased: (routeKey) => holdsReleased.inc({ route_key: routeKey }),
    creditsCharged: (routeKey, credits) => charged.inc({ route_key: routeKey }, credits),
    settlementUnconfirmed: (routeKey) => unconfirmed.inc({ route_key: routeKey }),
    railPayment: (rail, settlement) => railPayments.inc({ rail, settlement }),
    meteredChargeAnomaly: (routeKey, kind) => meteredAnomalies.inc({ route_key: routeKey, kind }),
  };
}
