// The ledger's business metrics (Prometheus, served with the process and RPC metrics on
// METRICS_PORT): what settlements did, what expiry gave back, what was charged, what top-ups took in.
// Each series is declared once on prom-client's default registry; createLedgerMetrics() is the
// domain's LedgerMetrics port over them, and the only way code counts.
import { Counter, Gauge } from "prom-client";
import { singleton } from "@agentic/platform";
import type { LedgerMetrics } from "./domain/ports";

/**
 * Settlement deliveries handled, by result: applied, already_settled, unknown_hold, user_mismatch,
 * poison, failed. A capture retried while its hold is unknown counts once per delivery, as failed does.
 */
const settlementsTotal = singleton(
  "ledger_settlements_total",
  () =>
    new Counter({
      name: "ledger_settlements_total",
      help: "Settlement deliveries handled by the ledger, by result (failed and unknown_hold captures are redelivered).",
      labelNames: ["result"] as const,
    }),
);

/**
 * Settlements copied to executions.dead and terminated, by reason (unknown_hold: a capture whose hold
 * never appeared; user_mismatch: a settlement naming another user). Alert on any increase: each one
 * is a capture that will not be charged as published. Exported for the tests that read it.
 */
export const settlementsDeadLetteredTotal = singleton("ledger_settlements_dead_lettered_total", () => {
  const counter = new Counter({
    name: "ledger_settlements_dead_lettered_total",
    help: "Settlements the ledger gave up on and published to executions.dead, by reason.",
    labelNames: ["reason"] as const,
  });
  // Both series exist from the start, so increase() sees the first dead letter.
  for (const reason of ["unknown_hold", "user_mismatch"]) counter.inc({ reason }, 0);
  return counter;
});

/**
 * 1 while this ledger finds another store's id in the ledger_store KV entry it refreshes: two stores
 * are fed by one NATS, so settlements can land on the store without their hold. Alert when it is 1.
 * Exported for the tests that read it.
 */
export const storeIdentityConflict = singleton(
  "ledger_store_identity_conflict",
  () =>
    new Gauge({
      name: "ledger_store_identity_conflict",
      help: "1 while another ledger announces a different store on the same NATS (stores not shared), else 0.",
    }),
);

/** Captures that arrived after their hold had expired: work done and not charged. Alert when it grows. Exported for the tests that read it. */
export const lateCapturesTotal = singleton(
  "ledger_late_captures_total",
  () =>
    new Counter({
      name: "ledger_late_captures_total",
      help: "Captures that arrived after their hold expired and were therefore not charged.",
    }),
);

/** Credits charged by applied captures ({credit}; 1000 credits = 1 USD). */
const creditsChargedTotal = singleton(
  "ledger_credits_charged_total",
  () =>
    new Counter({
      name: "ledger_credits_charged_total",
      help: "Credits charged by applied captures (1000 credits = 1 USD).",
    }),
);

/** Holds released by the expiry sweeper. */
const holdsExpiredTotal = singleton(
  "ledger_holds_expired_total",
  () =>
    new Counter({
      name: "ledger_holds_expired_total",
      help: "Holds never settled and released by the expiry sweeper.",
    }),
);

/**
 * Executions running past their lease: their executor is presumed gone and their outcome is awaited
 * (a capture or release on the bus, or abandonment). Alert when it stays above 0.
 */
const executionsIndeterminate = singleton(
  "ledger_executions_indeterminate",
  () =>
    new Gauge({
      name: "ledger_executions_indeterminate",
      help: "Executions whose provider call may have happened and whose outcome is not known yet (running past their lease).",
    }),
);

/** Executions marked outcome_unknown: abandoned mid-call, nothing charged, the provider may have acted. */
const executionsAbandonedTotal = singleton(
  "ledger_executions_abandoned_total",
  () =>
    new Counter({
      name: "ledger_executions_abandoned_total",
      help: "Executions abandoned mid-call and marked outcome_unknown (nothing charged; the provider may have acted).",
    }),
);

/** Outgoing payments (x402, MPP) booked from settlements, by rail and settlement state; each counted once. */
const outgoingPaymentsTotal = singleton(
  "ledger_outgoing_payments_total",
  () =>
    new Counter({
      name: "ledger_outgoing_payments_total",
      help: "Payments to sellers booked from settlements, by rail and settlement (settled, unconfirmed, rejected, unknown).",
      labelNames: ["rail", "settlement"] as const,
    }),
);

/** Micro-USD of booked outgoing payments, by rail and settlement state. */
const outgoingPaymentsMicroUsdTotal = singleton(
  "ledger_outgoing_payments_micro_usd_total",
  () =>
    new Counter({
      name: "ledger_outgoing_payments_micro_usd_total",
      help: "Micro-USD of payments to sellers booked from settlements (1 USD = 1e6), by rail and settlement.",
      labelNames: ["rail", "settlement"] as const,
    }),
);

/** Platform losses (paid a seller, charged nothing), by reason. Alert on any increase; GetReconciliation lists them. */
const platformLossesTotal = singleton(
  "ledger_platform_losses_total",
  () =>
    new Counter({
      name: "ledger_platform_losses_total",
      help: "Payments the platform made and did not charge for, by reason.",
      labelNames: ["reason"] as const,
    }),
);

/** Micro-USD of platform losses, by reason. */
const platformLossesMicroUsdTotal = singleton(
  "ledger_platform_losses_micro_usd_total",
  () =>
    new Counter({
      name: "ledger_platform_losses_micro_usd_total",
      help: "Micro-USD the platform paid and did not charge for (1 USD = 1e6), by reason.",
      labelNames: ["reason"] as const,
    }),
);

/**
 * Top-ups by result: credited, replayed, invalid (refused before anything was written), failed (the
 * facilitator refused to settle), pending (settlement outcome unknown; alert when it grows without
 * credited following), unverified (the facilitator did not answer a verify).
 */
const topUpsTotal = singleton(
  "ledger_top_ups_total",
  () =>
    new Counter({
      name: "ledger_top_ups_total",
      help: "Top-up requests handled by the ledger, by result.",
      labelNames: ["result"] as const,
    }),
);

/** Credits added to wallets by paid top-ups. */
const topUpCreditsTotal = singleton(
  "ledger_top_up_credits_total",
  () => new Counter({ name: "ledger_top_up_credits_total", help: "Credits added to wallets by paid top-ups." }),
);

/** Holds a spend policy refused (nothing held, no provider called), by code and limit: budget, capability_credits, capability_count, max_price. */
const spendRefusalsTotal = singleton(
  "ledger_spend_refusals_total",
  () =>
    new Counter({
      name: "ledger_spend_refusals_total",
      help: "Holds refused by a spend policy of an API key or agent, by code and limit.",
      labelNames: ["code", "limit"] as const,
    }),
);

/** The LedgerMetrics port on the process-wide registry. */
export function createLedgerMetrics(): LedgerMetrics {
  return {
    settlementHandled: (result) => settlementsTotal.inc({ result }),
    settlementDeadLettered: (reason) => settlementsDeadLetteredTotal.inc({ reason }),
    creditsCharged: (credits) => creditsChargedTotal.inc(credits),
    lateCapture: () => lateCapturesTotal.inc(),
    /** Counts what one settlement booked for the first time (a redelivery books, and counts, nothing). */
    booked(facts) {
      for (const p of facts.payments) {
        outgoingPaymentsTotal.inc({ rail: p.rail, settlement: p.settlement });
        outgoingPaymentsMicroUsdTotal.inc({ rail: p.rail, settlement: p.settlement }, p.amountMicroUsd);
      }
      for (const l of facts.losses) {
        platformLossesTotal.inc({ reason: l.reason });
        platformLossesMicroUsdTotal.inc({ reason: l.reason }, l.amountMicroUsd);
      }
    },
    storeIdentityConflict: (conflict) => storeIdentityConflict.set(conflict ? 1 : 0),
    holdsExpired: (count) => holdsExpiredTotal.inc(count),
    executionsAbandoned: (count) => executionsAbandonedTotal.inc(count),
    executionsIndeterminate: (count) => executionsIndeterminate.set(count),
    topUp: (result) => topUpsTotal.inc({ result }),
    topUpCredited: (credits) => topUpCreditsTotal.inc(credits),
    spendRefused: (code, limit) => spendRefusalsTotal.inc({ code, limit }),
  };
}
