// Applies executions.settled (agentic.events.v1.ExecutionSettled) from the EXECUTIONS stream through
// the durable pull consumer "ledger". Delivery is at-least-once; the effect is exactly-once because
// the store settles a hold once (held → captured/released) and records its usage once per hold.
// A message is acked only after its store write; a failed write is nak'ed with a growing delay and
// redelivered; a message that can never be applied (undecodable, invalid) is terminated and logged.
// A capture for a hold this store does not know yet is retried the same way (the hold may still be
// on its way, e.g. a replica of the store lagging); one that never finds its hold, and any
// settlement naming another user, is copied to executions.dead before it is terminated.
import { SpanStatusCode, trace } from "@opentelemetry/api";
import {
  AckPolicy,
  DeliverPolicy,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from "nats";
import { ATTR_HOLD_ID, EXECUTIONS_STREAM, SUBJECT_SETTLED, withConsumerSpan, type Logger } from "@agentic/platform";
import type { Ledger } from "../domain/ledger";
import type { DeadLetterReason, LedgerMetrics, SettleResult } from "../domain/ports";
import type { Hold } from "../domain/types";
import { publishDeadLetter } from "./dead-letter";
import { decodeSettlement } from "./settlement-message";

export const SETTLEMENT_DURABLE = "ledger";

const NS_PER_MS = 1_000_000;

/**
 * The durable consumer, written down on purpose:
 * - ack_wait 30 s: far above one store write (a Mongo transaction with retries takes well under a
 *   second), so a slow but healthy handler is not raced by a redelivery to another replica.
 * - max_deliver 150 with nak delays growing 0.5 s → 30 s: about 72 minutes of retries through a
 *   store outage (deliveries are not counted while no ledger runs), longer than the longest hold
 *   TTL (1 h). So when the server finally gives up (advisory
 *   $JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.EXECUTIONS.ledger, alert on it) the hold has expired
 *   already: giving up never loses more than the expiry does, and expiry only under-charges.
 *   A capture for an unknown hold is dead-lettered by the ledger itself at delivery
 *   UNKNOWN_HOLD_MAX_DELIVERIES (128), before the server's limit, so it is never dropped silently.
 * - max_ack_pending 512: bounds what all replicas hold un-acked at once.
 */
export const SETTLEMENT_CONSUMER_CONFIG: Partial<ConsumerConfig> & { durable_name: string } = {
  durable_name: SETTLEMENT_DURABLE,
  description: "ledger: applies captures and releases of holds",
  filter_subject: SUBJECT_SETTLED,
  ack_policy: AckPolicy.Explicit,
  deliver_policy: DeliverPolicy.All,
  ack_wait: 30_000 * NS_PER_MS,
  max_deliver: 150,
  max_ack_pending: 512,
};

/** Delay before redelivering a failed message: 0.5 s doubling per attempt, at most 30 s. */
export function nakDelayMs(deliveryCount: number): number {
  return Math.min(500 * 2 ** Math.max(deliveryCount - 1, 0), 30_000);
}

/**
 * Delivery at which a capture whose hold is still unknown is dead-lettered. The waits between
 * deliveries 1..N are nakDelayMs(1..N−1) = 0.5 + 1 + 2 + 4 + 8 + 16 = 31.5 s for the first six, then
 * 30 s each: 31.5 s + 30 s × (N − 7). For N = 128 that is 31.5 + 30 × 121 = 3,661.5 s ≈ 61 minutes,
 * more than the longest hold TTL (1 h; N ≥ 126 is needed), so a hold that was going to appear has;
 * and 128 < max_deliver (150), so the ledger decides, not the server.
 */
export const UNKNOWN_HOLD_MAX_DELIVERIES = 128;

/** Creates the durable consumer, or updates the settings above on an existing one (idempotent). */
export async function ensureSettlementConsumer(jsm: JetStreamManager): Promise<void> {
  try {
    await jsm.consumers.info(EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
  } catch (err) {
    if ((err as { code?: string }).code !== "404") throw err;
    try {
      await jsm.consumers.add(EXECUTIONS_STREAM, SETTLEMENT_CONSUMER_CONFIG);
      return;
    } catch (addErr) {
      // Another replica created it between our info and add.
      if (!/already (exists|in use)/i.test(String((addErr as Error).message))) throw addErr;
    }
  }
  const { durable_name: _durable, deliver_policy: _deliver, ...mutable } = SETTLEMENT_CONSUMER_CONFIG;
  await jsm.consumers.update(EXECUTIONS_STREAM, SETTLEMENT_DURABLE, mutable);
}

/** What happened to one message (for logs, tests and metrics). */
export interface SettlementOutcome {
  holdId: string;
  /** The store's answer, or "poison" for a message that was terminated. */
  result: SettleResult["status"] | "poison";
  /** The hold after the settlement, when it exists. */
  hold?: Hold;
  /** Why a poison message was terminated. */
  reason?: string;
  /** True when the message was copied to executions.dead before it was terminated. */
  deadLettered?: boolean;
}

/** A capture for an unknown hold handed back for a later delivery. */
export interface SettlementRetry {
  holdId: string;
  result: "unknown_hold";
  /** Deliveries of this message so far (1 = first). */
  deliveries: number;
  retryInMs: number;
}

/** How captures for unknown holds (and failed writes) are retried; production uses the defaults. */
export interface SettlementRetryOptions {
  /** Delivery at which a capture whose hold is still unknown is dead-lettered (default UNKNOWN_HOLD_MAX_DELIVERIES; below max_deliver). */
  unknownHoldMaxDeliveries?: number;
  /** Delay before the next delivery, from the deliveries so far (default nakDelayMs). */
  delayMs?: (deliveryCount: number) => number;
}

export interface SettlementConsumerDeps {
  nc: NatsConnection;
  ledger: Ledger;
  logger: Logger;
  metrics: LedgerMetrics;
  /** Messages handled at once (default 16). */
  concurrency?: number;
  retry?: SettlementRetryOptions;
  /** Called after a message was applied and acked (or terminated, or dead-lettered and terminated). */
  onOutcome?: (outcome: SettlementOutcome) => void;
  /** Called when a capture for an unknown hold was nak'ed for a later delivery. */
  onRetry?: (retry: SettlementRetry) => void;
}

export interface SettlementConsumer {
  /** Stops pulling, waits for in-flight messages to be written and acked. */
  stop(): Promise<void>;
  /** Messages not yet delivered plus delivered but not yet acked (0 and 0: caught up). */
  backlog(): Promise<{ pending: number; ackPending: number }>;
}

export async function startSettlementConsumer(deps: SettlementConsumerDeps): Promise<SettlementConsumer> {
  const { nc, ledger, logger, metrics } = deps;
  const concurrency = deps.concurrency ?? 16;
  const retryDelayMs = deps.retry?.delayMs ?? nakDelayMs;
  const unknownHoldMaxDeliveries = deps.retry?.unknownHoldMaxDeliveries ?? UNKNOWN_HOLD_MAX_DELIVERIES;
  // At or past max_deliver the server would drop the message before the ledger dead-letters it.
  if (!(unknownHoldMaxDeliveries >= 1 && unknownHoldMaxDeliveries < SETTLEMENT_CONSUMER_CONFIG.max_deliver!)) {
    throw new Error(`unknownHoldMaxDeliveries must be 1..${SETTLEMENT_CONSUMER_CONFIG.max_deliver! - 1}, got ${unknownHoldMaxDeliveries}`);
  }
  const js = nc.jetstream();
  const consumer = await js.consumers.get(EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
  // Prefetch at most what the workers can take, so un-acked messages do not wait in a buffer.
  const messages: ConsumerMessages = await consumer.consume({ max_messages: concurrency });
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let slotFreed: (() => void) | undefined;

  async function handle(m: JsMsg): Promise<void> {
    try {
      await withConsumerSpan(m, SETTLEMENT_DURABLE, async () => {
        const span = trace.getActiveSpan();
        const decoded = decodeSettlement(m.data, new Date());
        if (!decoded.ok) {
          logger.error({ seq: m.seq, reason: decoded.reason }, "poison settlement terminated");
          span?.setStatus({ code: SpanStatusCode.ERROR, message: decoded.reason });
          m.term(); // no reason text: nats-server < 2.10.4 does not understand "+TERM <reason>"
          metrics.settlementHandled("poison");
          deps.onOutcome?.({ holdId: "", result: "poison", reason: decoded.reason });
          return;
        }
        const { settlement } = decoded;
        const { holdId } = settlement;
        span?.setAttribute(ATTR_HOLD_ID, holdId);
        const result = await ledger.settle(settlement);
        span?.setAttribute("agentic.settlement.result", result.status);
        const deliveries = m.info.redeliveryCount;
        // Only captures wait for their hold: the executor also releases holds it is unsure were
        // created, and an unknown hold that does appear later expires and is given back anyway.
        const missingCapture = result.status === "unknown_hold" && settlement.kind === "capture";
        if (missingCapture && deliveries < unknownHoldMaxDeliveries) {
          const retryInMs = retryDelayMs(deliveries);
          logger.warn({ holdId, seq: m.seq, deliveries, retryInMs }, "capture for a hold not in the store yet; will be redelivered");
          m.nak(retryInMs);
          metrics.settlementHandled(result.status);
          deps.onRetry?.({ holdId, result: "unknown_hold", deliveries, retryInMs });
          return;
        }
        if (missingCapture || result.status === "user_mismatch") {
          const reason: DeadLetterReason = result.status === "user_mismatch" ? "user_mismatch" : "unknown_hold";
          await publishDeadLetter(js, m, { holdId, reason }); // throws without a PubAck: the original is retried
          logger.error({ holdId, seq: m.seq, deliveries, reason }, "settlement dead-lettered to executions.dead; it will not be charged");
          m.term();
          metrics.settlementHandled(result.status);
          metrics.settlementDeadLettered(reason);
          deps.onOutcome?.({ holdId, result: result.status, hold: "hold" in result ? result.hold : undefined, deadLettered: true });
          return;
        }
        // Ack only now that the write is durable; if the ack is lost the redelivery is a no-op
        // (already_settled), so no confirmation is awaited: a confirmed ack (ackAck) cost every
        // settlement a request to nats-server and its reply. Shutdown drains the connection, which
        // sends the acks still buffered.
        m.ack();
        metrics.settlementHandled(result.status);
        if (result.status === "applied" && result.hold.state === "captured") metrics.creditsCharged(result.hold.capturedCredits);
        if (result.status === "already_settled" && settlement.kind === "capture" && result.hold.state === "expired") metrics.lateCapture();
        if (result.status === "applied" || result.status === "already_settled") metrics.booked(result.booked);
        deps.onOutcome?.({ holdId, result: result.status, hold: "hold" in result ? result.hold : undefined });
      });
    } catch (err) {
      const delay = retryDelayMs(m.info.redeliveryCount);
      logger.error({ err, seq: m.seq, deliveryCount: m.info.redeliveryCount, retryInMs: delay }, "settlement failed; will be redelivered");
      m.nak(delay);
      metrics.settlementHandled("failed");
    }
  }

  const loop = (async () => {
    for await (const m of messages) {
      if (stopping) {
        m.nak(); // pulled before the stop: hand it straight back for another replica
        continue;
      }
      while (inFlight.size >= concurrency) await new Promise<void>((resolve) => (slotFreed = resolve));
      const task = handle(m).finally(() => {
        inFlight.delete(task);
        slotFreed?.();
      });
      inFlight.add(task);
    }
  })().catch((err) => logger.error({ err }, "settlement consumer loop ended"));

  return {
    async stop() {
      stopping = true;
      await messages.close();
      await loop;
      await Promise.all([...inFlight]);
    },
    async backlog() {
      const info = await consumer.info();
      return { pending: info.num_pending, ackPending: info.num_ack_pending };
    },
  };
}
