// Feeds route health from executions.outcome (agentic.events.v1.RouteOutcome). Each replica reads
// ALL outcomes through its own ordered (ephemeral, in-order, no-ack) consumer that starts a replay
// window back, so replicas fed the same stream converge; a shared durable would split the messages.
// `caughtUp` tells when the replay has reached the outcomes stored at start, so a new replica serves
// from the same view as the others, not from empty health.
import type { NatsConnection } from "nats";
import { EXECUTIONS_STREAM, SUBJECT_OUTCOME, withConsumerSpan, type Logger } from "@agentic/platform";
import { RouteOutcome } from "@agentic/proto/events/v1";
import type { RouteHealthBook } from "../domain/route-health";

export interface OutcomeConsumerOptions {
  nc: NatsConnection;
  book: RouteHealthBook;
  /** How far back to replay outcomes at start, in ms (health learned before this replica started). */
  replayWindowMs: number;
  logger: Logger;
  /**
   * Who reads, named on the consumer span that joins each update to its execution's trace; none: no span (the
   * executor, re-reading outcomes it published itself, pays for no span per outcome).
   */
  tracedAs?: string;
  /**
   * Called once when the read loop ends while nobody stopped it (the outcome feed died): route
   * health stops learning, so the caller makes that visible (the router goes NOT_SERVING).
   */
  onFailed?: (err: unknown) => void;
}

export interface OutcomeConsumer {
  /** Outcomes applied to the health book so far. */
  readonly applied: number;
  /** Resolves once every outcome of the replay window stored at start has been read. */
  readonly caughtUp: Promise<void>;
  /** Stops reading; resolves once the read loop has ended. */
  stop(): Promise<void>;
}

/** The outcome in `data`; undefined (logged) when it does not decode. */
function decodeOutcome(data: Uint8Array, seq: number, logger: Logger): RouteOutcome | undefined {
  try {
    return RouteOutcome.decode(data);
  } catch (err) {
    logger.warn({ err, seq }, "skipping an undecodable RouteOutcome");
    return undefined;
  }
}

/** Starts reading outcomes; the stream must exist (ensureExecutionsStream). */
export async function startOutcomeConsumer(opts: OutcomeConsumerOptions): Promise<OutcomeConsumer> {
  const js = opts.nc.jetstream();
  const consumer = await js.consumers.get(EXECUTIONS_STREAM, {
    // A single subject string: filter_subjects (plural) needs nats-server 2.10.
    filterSubjects: SUBJECT_OUTCOME,
    opt_start_time: new Date(Date.now() - opts.replayWindowMs).toISOString(),
  });
  const messages = await consumer.consume();
  // consume() created the consumer: its info, as created, counts the outcomes of the window stored then.
  const backlog = (await consumer.info(true)).num_pending;
  let applied = 0;
  let read = 0;
  let stopping = false;
  let markCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));
  if (backlog === 0) markCaughtUp();

  const loop = (async () => {
    for await (const m of messages) {
      read += 1;
      // The backlog read, or nothing left behind this message: what was stored at start is in the book.
      const reachedStartState = read >= backlog || m.info.pending === 0;
      try {
        const outcome = decodeOutcome(m.data, m.seq, opts.logger);
        if (!outcome?.routeKey) continue;
        const apply = () =>
          opts.book.record({
            routeKey: outcome.routeKey,
            ok: outcome.ok,
            errorKind: outcome.errorKind,
            latencyMs: outcome.latencyMs,
            userId: outcome.userId,
            blame: outcome.blame,
            // Event time keeps replicas in agreement; the stream's time stands in when the publisher set none.
            observedAtMs: outcome.observedAt?.getTime() ?? Math.floor(m.info.timestampNanos / 1e6),
          });
        // The health update joins the trace of the execution that produced the outcome.
        if (opts.tracedAs === undefined) apply();
        else await withConsumerSpan(m, opts.tracedAs, async () => apply());
        applied += 1;
      } finally {
        if (reachedStartState) markCaughtUp();
      }
    }
    if (!stopping) throw new Error("the outcome stream ended without a stop");
  })().catch((err: unknown) => {
    opts.logger.error({ err }, "outcome consumer loop ended; route health no longer learns from outcomes");
    if (!stopping) opts.onFailed?.(err);
  });

  return {
    get applied() {
      return applied;
    },
    caughtUp,
    async stop() {
      stopping = true;
      messages.stop();
      await loop;
    },
  };
}
