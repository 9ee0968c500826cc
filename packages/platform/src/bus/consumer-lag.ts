// JetStream consumer lag as Prometheus gauges, read from the server when /metrics is scraped
// (no poller): messages not yet delivered, and delivered but not yet acknowledged.
import { Gauge } from "prom-client";
import type { JetStreamManager } from "nats";
import { singleton } from "../metrics/rpc-metrics";

const watched = new Map<string, { jsm: JetStreamManager; stream: string; consumer: string }>();

async function collectLag(pending: Gauge<"stream" | "consumer">, ackPending: Gauge<"stream" | "consumer">): Promise<void> {
  await Promise.all(
    [...watched.values()].map(async ({ jsm, stream, consumer }) => {
      try {
        const info = await jsm.consumers.info(stream, consumer);
        pending.set({ stream, consumer }, info.num_pending);
        ackPending.set({ stream, consumer }, info.num_ack_pending);
      } catch {
        // NATS unreachable during a scrape: leave the last values rather than fail /metrics.
      }
    }),
  );
}

const ackPendingGauge = singleton(
  "nats_consumer_ack_pending_messages",
  () =>
    new Gauge({
      name: "nats_consumer_ack_pending_messages",
      help: "Messages delivered to a durable JetStream consumer and not yet acknowledged.",
      labelNames: ["stream", "consumer"] as const,
    }),
);

const pendingGauge = singleton(
  "nats_consumer_pending_messages",
  () =>
    new Gauge({
      name: "nats_consumer_pending_messages",
      help: "Messages in the stream not yet delivered to a durable JetStream consumer (its lag).",
      labelNames: ["stream", "consumer"] as const,
      async collect() {
        await collectLag(this, ackPendingGauge);
      },
    }),
);

/** Reports the lag of durable `consumer` on `stream` in /metrics; returns a function that stops it. */
export function watchConsumerLag(jsm: JetStreamManager, stream: string, consumer: string): () => void {
  const key = `${stream}/${consumer}`;
  watched.set(key, { jsm, stream, consumer });
  void pendingGauge; // registered on first use of this module
  return () => {
    watched.delete(key);
  };
}
