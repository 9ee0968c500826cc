// Counters of refused requests, labelled by reason only: a per-key label would make one series per
// API key (unbounded cardinality); the log line of each request names the user instead.
import { Counter, Gauge } from "prom-client";
import { singleton } from "@agentic/platform";

/** gateway_requests_limited_total{reason="rate"|"concurrency"|"unauthenticated"}: 429s. */
export const requestsLimited = singleton(
  "gateway_requests_limited_total",
  () =>
    new Counter({
      name: "gateway_requests_limited_total",
      help: "Requests refused with 429 by the per-key rate limit, the per-key in-flight cap, or the per-IP budget of requests without a valid key.",
      labelNames: ["reason"] as const,
    }),
);

/** gateway_requests_shed_total{reason="in_flight"|"event_loop"}: 503 OVERLOADED. */
export const requestsShed = singleton(
  "gateway_requests_shed_total",
  () =>
    new Counter({
      name: "gateway_requests_shed_total",
      help: "Requests shed with 503 OVERLOADED because the gateway had too many requests in flight or its event loop lagged.",
      labelNames: ["reason"] as const,
    }),
);

/** gateway_requests_in_flight: requests being served (probes and /metrics excluded). */
export const requestsInFlight = singleton(
  "gateway_requests_in_flight",
  () => new Gauge({ name: "gateway_requests_in_flight", help: "Requests the gateway is serving now (probes and /metrics excluded)." }),
);
