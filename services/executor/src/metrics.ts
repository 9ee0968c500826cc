// The executor's business metrics (the domain's ExecutionMetrics port), on prom-client's default
// registry (served with the process and RPC metrics on METRICS_PORT): provider attempts and their
// latency per route, credits charged, holds placed and released, settlements JetStream never
// acknowledged, payments the paid rails made, and per-token charges that were not the vendor's usage.
import { Counter, Gauge, Histogram } from "prom-client";
import { LATENCY_BUCKETS_SECONDS, singleton } from "@agentic/platform";
import type { ExecutionMetrics } from "./domain/ports";

/** A counter of this process, declared once on the default registry. */
function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return singleton(name, () => new Counter({ name, help, labelNames }));
}

const attempts = counter(
  "executor_provider_attempts_total",
  "Provider attempts by route, provider and outcome (ok, timeout, http_5xx, http_4xx, payment, network, invalid_response).",
  ["route_key", "provider", "outcome"],
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
const charged = counter("executor_credits_charged_total", "Credits captured for successful executions (1000 credits = 1 USD), by route.", [
  "route_key",
]);
const holdsPlaced = counter("executor_holds_placed_total", "Credit holds placed before provider calls, by route.", ["route_key"]);
const holdsReleased = counter("executor_holds_released_total", "Credit holds released after failed provider calls, by route.", [
  "route_key",
]);
const unconfirmed = counter(
  "executor_settlements_unconfirmed_total",
  "Captures or releases JetStream never acknowledged (their holds expire unsettled), by route.",
  ["route_key"],
);
const meteredAnomalies = counter(
  "executor_metered_charge_anomalies_total",
  "Metered charges that were not the vendor's usage, by route and kind (usage_over_hold: the vendor billed more than was held, clamped to the hold, our loss; usage_missing: no usage reported, the hold was charged; units_over_pinned: the vendor reported more units than the route pins, e.g. letter pages, our loss). Alert on any.",
  ["route_key", "kind"],
);
const railPayments = counter(
  "executor_rail_payments_total",
  "Payments the paid rails made to sellers, by rail (x402, mpp) and settlement (settled, unconfirmed: signed and answered 2xx without a settlement proof).",
  ["rail", "settlement"],
);

/** What the in-flight gauge reads when scraped (the drain's count). */
let readInFlight: () => number = () => 0;

/**
 * executor_executions_in_flight: Execute calls running and the results they are still storing, read
 * at scrape time. The autoscaler scales on it (through prometheus-adapter): an executor waits on
 * vendors, so its CPU says little about how busy it is, and a stop waits for exactly these.
 */
singleton(
  "executor_executions_in_flight",
  () =>
    new Gauge({
      name: "executor_executions_in_flight",
      help: "Execute calls in flight on this executor, with the results they are still storing (what a stop waits for).",
      collect() {
        this.set(readInFlight());
      },
    }),
);

/** Where the in-flight gauge reads its value at scrape time (the last executor started in the process). */
export function executionsInFlightFrom(read: () => number): void {
  readInFlight = read;
}

/** The ExecutionMetrics port on the process-wide registry; each series is declared once, whatever the number of executors. */
export function createExecutorMetrics(): ExecutionMetrics {
  return {
    attempt({ routeKey, providerKey, outcome, durationMs }) {
      attempts.inc({ route_key: routeKey, provider: providerKey, outcome });
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
