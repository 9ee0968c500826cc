// Dead letters: settlement messages the ledger gives up on (a capture whose hold never appeared, a
// settlement naming another user) are copied, byte for byte, to executions.dead with headers saying
// where they came from and why, before the original is terminated. Nothing that could be a charge is
// dropped silently: it stays in JetStream for an operator (alert on ledger_settlements_dead_lettered_total).
//
// Storage: executions.dead falls under the EXECUTIONS stream's `executions.>` subjects, so a dead
// letter is stored like the settlement itself (file storage, NATS_STREAM_REPLICAS copies; the
// stream's trimmer never removes dead letters, operators do) with no second stream to create,
// replicate and keep in step. Publishing waits for the PubAck; without it the handler throws and the original is retried.
import { trace } from "@opentelemetry/api";
import type { JetStreamClient, JsMsg } from "nats";
import { ATTR_HOLD_ID, withProducerSpan } from "@agentic/platform";
import type { DeadLetterReason } from "../domain/ports";

/** Subject of dead-lettered settlements (stored by the EXECUTIONS stream, `executions.>`). */
export const SUBJECT_DEAD_LETTER = "executions.dead";

/** Headers of a dead letter (its body is the original message's body, unchanged). */
export const DEAD_LETTER_HEADERS = {
  reason: "Agentic-Dead-Letter-Reason",
  subject: "Agentic-Original-Subject",
  stream: "Agentic-Original-Stream",
  sequence: "Agentic-Original-Sequence",
  holdId: "Agentic-Hold-Id",
  deliveries: "Agentic-Deliveries",
} as const;

/**
 * Publishes a copy of `m` to executions.dead and resolves once JetStream stored it. The msg id is the
 * original's stream and sequence, so a repeat (the term was lost and the original came back within
 * the 2-minute de-duplication window) is stored once.
 */
export async function publishDeadLetter(js: JetStreamClient, m: JsMsg, info: { holdId: string; reason: DeadLetterReason }): Promise<void> {
  const msgId = `dead.${m.info.stream}.${m.seq}`;
  await withProducerSpan(
    SUBJECT_DEAD_LETTER,
    {
      "Nats-Msg-Id": msgId,
      [DEAD_LETTER_HEADERS.reason]: info.reason,
      [DEAD_LETTER_HEADERS.subject]: m.subject,
      [DEAD_LETTER_HEADERS.stream]: m.info.stream,
      [DEAD_LETTER_HEADERS.sequence]: String(m.seq),
      [DEAD_LETTER_HEADERS.holdId]: info.holdId,
      [DEAD_LETTER_HEADERS.deliveries]: String(m.info.redeliveryCount),
    },
    async (headers) => {
      trace.getActiveSpan()?.setAttribute(ATTR_HOLD_ID, info.holdId);
      await js.publish(SUBJECT_DEAD_LETTER, m.data, { msgID: msgId, headers });
    },
  );
}
