// The ledger's business metrics (Prometheus, served with the process and RPC metrics on
// METRICS_PORT): what settlements did, what expiry gave back, what was charged.
import { Counter } from "prom-client";

/** Settlement messages handled, by result: applied, already_settled, unknown_hold, user_mismatch, poison, failed. */
export const settlementsTotal = new Counter({
  name: "ledger_settlements_total",
  help: "Settlement messages handled by the ledger, by result (failed ones are redelivered).",
  labelNames: ["result"] as const,
});

/** Captures that arrived after their hold had expired: work done and not charged. Alert when it grows. */
export const lateCapturesTotal = new Counter({
  name: "ledger_late_captures_total",
  help: "Captures that arrived after their hold expired and were therefore not charged.",
});

/** Credits charged by applied captures ({credit}; 1000 credits = 1 USD). */
export const creditsChargedTotal = new Counter({
  name: "ledger_credits_charged_total",
  help: "Credits charged by applied captures (1000 credits = 1 USD).",
});

/** Holds released by the expiry sweeper. */
export const holdsExpiredTotal = new Counter({
  name: "ledger_holds_expired_total",
  help: "Holds never settled and released by the expiry sweeper.",
});
