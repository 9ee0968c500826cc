// Publishes one RouteOutcome per provider attempt on executions.outcome for the router's route
// health. Advisory: never blocks or fails an execution; publishes still in flight are awaited on
// shutdown so none is cut off.
import type { JetStreamClient } from "nats";
import { SUBJECT_OUTCOME, withProducerSpan, type Logger } from "@agentic/platform";
import { RouteOutcome } from "@agentic/proto/events/v1";

export interface OutcomePublisher {
  /** Publishes in the background; failures are logged. */
  publish(outcome: RouteOutcome): void;
  /** Resolves once every publish started so far has ended. */
  drain(): Promise<void>;
}

/**
 * Nats-Msg-Id of an attempt's outcome. De-duplication is per stream, not per subject, and the
 * attempt id is also the hold id that its settlement is published under: sharing it would make the
 * stream drop the settlement as a duplicate of the outcome.
 */
function outcomeMsgId(attemptId: string): string {
  return `${attemptId}.outcome`;
}

export function createOutcomePublisher(js: Pick<JetStreamClient, "publish">, logger: Logger, ackTimeoutMs = 2_000): OutcomePublisher {
  const pending = new Set<Promise<void>>();
  return {
    publish(outcome) {
      const msgID = outcomeMsgId(outcome.attemptId);
      const sent = withProducerSpan(SUBJECT_OUTCOME, { "Nats-Msg-Id": msgID }, (headers) =>
        js.publish(SUBJECT_OUTCOME, RouteOutcome.encode(outcome).finish(), { msgID, headers, timeout: ackTimeoutMs }),
      )
        .then(
          () => undefined,
          (err: unknown) =>
            logger.warn(
              { err, attemptId: outcome.attemptId, routeKey: outcome.routeKey },
              "route outcome not published; the router misses one sample",
            ),
        )
        .finally(() => pending.delete(sent));
      pending.add(sent);
    },
    async drain() {
      await Promise.all([...pending]);
    },
  };
}
