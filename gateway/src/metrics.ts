// The gateway's own metrics (Prometheus, on prom-client's default registry with the process
// metrics): each series declared once with the platform's `singleton`, and one method per fact.
// Labels are the route template ("/domains/:domainKey") and reasons, never a raw path or a key, so
// series stay bounded; the access log names the user when a request is worth a line.
import { Counter, Gauge, Histogram, register } from "prom-client";
import { LATENCY_BUCKETS_SECONDS, singleton } from "@agentic/platform";

/**
 * http_server_request_duration_seconds{http_request_method, http_route, http_response_status_code, error_type}:
 * the gateway's RED. error_type (OpenTelemetry's error.type) is the public code of a 5xx answer
 * (PROVIDER_ERROR, UNAVAILABLE, ...) and absent otherwise, so the SLOs can tell a vendor's failure
 * (PROVIDER_ERROR, PROVIDER_TIMEOUT: a routing event, alerted per provider) from our own; only 5xx
 * carry it, which keeps the series few.
 */
const httpServerDuration = singleton(
  "http_server_request_duration_seconds",
  () =>
    new Histogram({
      name: "http_server_request_duration_seconds",
      help: "Duration of HTTP requests served by the gateway, by method, route template and status.",
      labelNames: ["http_request_method", "http_route", "http_response_status_code", "error_type"] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
    }),
);

/** gateway_requests_limited_total{reason="rate"|"concurrency"|"unauthenticated"}: 429s. */
const requestsLimited = singleton(
  "gateway_requests_limited_total",
  () =>
    new Counter({
      name: "gateway_requests_limited_total",
      help: "Requests refused with 429 by the per-key rate limit, the per-key in-flight cap, or the per-IP budget of requests without a valid key.",
      labelNames: ["reason"] as const,
    }),
);

/** gateway_requests_shed_total{reason="in_flight"|"event_loop"}: 503 OVERLOADED. */
const requestsShed = singleton(
  "gateway_requests_shed_total",
  () =>
    new Counter({
      name: "gateway_requests_shed_total",
      help: "Requests shed with 503 OVERLOADED because the gateway had too many requests in flight or its event loop lagged.",
      labelNames: ["reason"] as const,
    }),
);

/** What the in-flight gauge reads when scraped (the load shedder's count). */
let readInFlight: () => number = () => 0;

/** gateway_requests_in_flight: requests being served (probes and /metrics excluded), read at scrape time. */
singleton(
  "gateway_requests_in_flight",
  () =>
    new Gauge({
      name: "gateway_requests_in_flight",
      help: "Requests the gateway is serving now (probes and /metrics excluded).",
      collect() {
        this.set(readInFlight());
      },
    }),
);

export type LimitReason = "rate" | "concurrency" | "unauthenticated";
export type ShedReason = "in_flight" | "event_loop";

/** The histogram series of one method, route template, status and error code: each answer's duration goes to one. */
export interface RequestSeries {
  observe(seconds: number): void;
}

export interface GatewayMetrics {
  /**
   * The series of answers with this method, route template, status and (5xx only) error code.
   * A caller that answers alike many times (the cached catalog reads) looks it up once.
   */
  requestSeries(method: string, route: string, status: number, errorCode?: string): RequestSeries;
  /** One 429 of the per-caller limits. */
  requestLimited(reason: LimitReason): void;
  /** One 503 OVERLOADED of the load shedder. */
  requestShed(reason: ShedReason): void;
  /** Where the in-flight gauge reads its value at scrape time. */
  inFlightFrom(read: () => number): void;
}

export function createGatewayMetrics(): GatewayMetrics {
  // One histogram child per method, route and status: prom-client validates and hashes a label
  // object on every observe through the histogram, which costs more than the lookup of a ready child.
  const children = new Map<string, RequestSeries>();
  return {
    requestSeries(method, route, status, errorCode) {
      const errorType = status >= 500 && errorCode ? errorCode : undefined;
      const id = `${method} ${status} ${route} ${errorType ?? ""}`;
      let child = children.get(id);
      if (!child) {
        const labels = { http_request_method: method, http_route: route, http_response_status_code: status };
        child = httpServerDuration.labels(errorType ? { ...labels, error_type: errorType } : labels);
        children.set(id, child);
      }
      return child;
    },
    requestLimited: (reason) => requestsLimited.inc({ reason }),
    requestShed: (reason) => requestsShed.inc({ reason }),
    inFlightFrom(read) {
      readInFlight = read;
    },
  };
}

/** The registry as Prometheus text, for GET /metrics on the public port. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: register.contentType, body: await register.metrics() };
}
