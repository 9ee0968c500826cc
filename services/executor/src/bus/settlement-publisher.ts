// Publishes the capture or release of a hold on executions.settled (agentic.events.v1.ExecutionSettled,
// Nats-Msg-Id = hold id, W3C trace context in the headers) and waits for JetStream's PubAck,
// re-publishing with the same id until it comes: the stream's de-duplication makes repeats harmless.
import { trace } from "@opentelemetry/api";
import type { JetStreamClient } from "nats";
import { ATTR_HOLD_ID, SUBJECT_SETTLED, callDeadlineMs, withProducerSpan, type Logger } from "@agentic/platform";
import { ExecutionSettled, SettlementKind } from "@agentic/proto/events/v1";
import { SettlementUnconfirmedError } from "../domain/ports";

export interface SettlementPublisherOptions {
  js: Pick<JetStreamClient, "publish">;
  /** How long to keep re-publishing before giving up, in ms (well inside the stream's 2-minute de-duplication window). */
  budgetMs: number;
  /** Longest wait for one PubAck, in ms. */
  ackTimeoutMs?: number;
  logger: Logger;
}

/** Resolves once JetStream holds the settlement; throws SettlementUnconfirmedError after `budgetMs`. */
export function createSettlementPublisher(opts: SettlementPublisherOptions): (event: ExecutionSettled) => Promise<void> {
  const ackTimeoutMs = opts.ackTimeoutMs ?? 2_000;
  return async (event) => {
    const data = ExecutionSettled.encode(event).finish();
    const deadline = Date.now() + opts.budgetMs;
    for (let attempt = 1, pause = 50; ; attempt++, pause = Math.min(pause * 2, 1_000)) {
      const timeout = callDeadlineMs(ackTimeoutMs, deadline - Date.now());
      try {
        await withProducerSpan(SUBJECT_SETTLED, { "Nats-Msg-Id": event.holdId }, async (headers) => {
          trace.getActiveSpan()?.setAttribute(ATTR_HOLD_ID, event.holdId);
          const ack = await opts.js.publish(SUBJECT_SETTLED, data, { msgID: event.holdId, headers, timeout });
          if (ack.duplicate) opts.logger.debug({ holdId: event.holdId, attempt }, "settlement already in the stream");
        });
        return;
      } catch (err) {
        const kind = event.kind === SettlementKind.SETTLEMENT_KIND_CAPTURE ? "capture" : "release";
        if (Date.now() + pause >= deadline) throw new SettlementUnconfirmedError(event.holdId, err);
        opts.logger.warn(
          { err, holdId: event.holdId, kind, attempt },
          "settlement publish not acknowledged; publishing again with the same id",
        );
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };
}
