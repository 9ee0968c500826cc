// Series the rules and dashboards may read that no service of ours declares: what the exporters
// this repository deploys export. The monitoring test accepts a series only when a service declares
// it, a rule records it, or it is listed here with the component that exports it; keep each list to
// the names that component's pinned version exports (read from its source at that version).

/** prometheus-nats-exporter (components/nats, sidecar `metrics`, without -prefix, so the names are its defaults: gnatsd_* and jetstream_*). */
const NATS_EXPORTER = [
  // -varz
  "gnatsd_varz_slow_consumers",
  "gnatsd_varz_connections",
  "gnatsd_varz_mem",
  "gnatsd_varz_cpu",
  // -jsz=all: per server, stream and consumer (labels server_name, cluster, meta_leader, stream_name, consumer_name, ...)
  "jetstream_server_total_streams",
  "jetstream_server_total_message_bytes",
  "jetstream_server_max_storage",
  "jetstream_server_jetstream_disabled",
  "jetstream_stream_total_bytes",
  "jetstream_stream_total_messages",
  "jetstream_consumer_num_pending",
  "jetstream_consumer_num_ack_pending",
  "jetstream_consumer_num_redelivered",
  // -healthz: 0 when the server's /healthz answers ok
  "gnatsd_healthz_status",
];

/** The OpenTelemetry Collector's own telemetry (components/otel-collector, service.telemetry.metrics on :8888). */
const OTEL_COLLECTOR = [
  "otelcol_receiver_accepted_spans",
  "otelcol_receiver_refused_spans",
  "otelcol_exporter_sent_spans",
  "otelcol_exporter_send_failed_spans",
  "otelcol_exporter_send_failed_metric_points",
  "otelcol_exporter_send_failed_log_records",
  "otelcol_exporter_queue_size",
  "otelcol_exporter_queue_capacity",
  "otelcol_processor_refused_spans",
];

/** Scrape health, which Prometheus itself records for every target. */
const PROMETHEUS = ["up"];

/** Every series name exported by something deployed here other than our services. */
export const EXPORTED_ELSEWHERE = new Set([...NATS_EXPORTER, ...OTEL_COLLECTOR, ...PROMETHEUS].flatMap((n) => [n, `${n}_total`]));
