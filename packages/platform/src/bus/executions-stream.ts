// The JetStream stream that carries execution events, defined once for every service.
import { RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from "nats";

export const EXECUTIONS_STREAM = "EXECUTIONS";
/** ExecutionSettled (agentic.events.v1), published by the executor, applied by the ledger. */
export const SUBJECT_SETTLED = "executions.settled";
/** RouteOutcome (agentic.events.v1), published by the executor, consumed by the router. */
export const SUBJECT_OUTCOME = "executions.outcome";

/** File storage, limits retention (each consumer has its own durable), 2-minute de-duplication window. */
export const EXECUTIONS_STREAM_CONFIG: Partial<StreamConfig> = {
  name: EXECUTIONS_STREAM,
  subjects: ["executions.>"],
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
  max_age: 7 * 24 * 60 * 60 * 1e9, // ns: a week of history for consumers that were down
  duplicate_window: 2 * 60 * 1e9, // ns: Nats-Msg-Id de-duplication of republished settlements
};

/**
 * Creates the stream when missing (idempotent) with `replicas` copies (3 on a 3-node JetStream
 * cluster, so settlements survive the loss of a node), and raises the replica count of an existing
 * stream that has fewer. Any service that publishes or consumes calls it.
 */
export async function ensureExecutionsStream(jsm: JetStreamManager, opts: { replicas?: number } = {}): Promise<void> {
  const replicas = opts.replicas ?? 1;
  try {
    const info = await jsm.streams.info(EXECUTIONS_STREAM);
    if ((info.config.num_replicas ?? 1) < replicas) await jsm.streams.update(EXECUTIONS_STREAM, { ...info.config, num_replicas: replicas });
  } catch (err) {
    if ((err as { code?: string }).code !== "404") throw err;
    try {
      await jsm.streams.add({ ...EXECUTIONS_STREAM_CONFIG, num_replicas: replicas });
    } catch (addErr) {
      // Another replica created it between our info and add: that is fine.
      if (!/already in use|exists/i.test(String((addErr as Error).message))) throw addErr;
    }
  }
}
