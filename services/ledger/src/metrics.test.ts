import { register } from "prom-client";
import type { BookedFacts } from "./domain/rules";
import { createLedgerMetrics } from "./metrics";

/** The sample lines of one series, as /metrics shows them. */
async function samples(name: string): Promise<string[]> {
  const text = await register.getSingleMetricAsString(name);
  return text.split("\n").filter((line) => line.startsWith(name));
}

describe("ledger metrics", () => {
  it("show both dead-letter series from the start, so increase() sees the first dead letter", async () => {
    createLedgerMetrics();
    expect(await samples("ledger_settlements_dead_lettered_total")).toEqual([
      'ledger_settlements_dead_lettered_total{reason="unknown_hold"} 0',
      'ledger_settlements_dead_lettered_total{reason="user_mismatch"} 0',
    ]);
  });

  it("count each fact in its series", async () => {
    const metrics = createLedgerMetrics();
    metrics.settlementHandled("applied");
    metrics.settlementHandled("applied");
    metrics.settlementHandled("poison");
    metrics.settlementDeadLettered("user_mismatch");
    metrics.creditsCharged(7);
    metrics.lateCapture();
    metrics.booked({
      payments: [{ rail: "x402", settlement: "settled", amountMicroUsd: 2_500 }],
      losses: [{ reason: "paid_attempt_released", amountMicroUsd: 2_500 }],
      resourceConflicts: [],
    } as unknown as BookedFacts);
    metrics.storeIdentityConflict(true);
    metrics.holdsExpired(3);
    metrics.executionsAbandoned(1);
    metrics.executionsIndeterminate(2);
    metrics.topUp("credited");
    metrics.topUpCredited(5_000);
    metrics.spendRefused("SPEND_LIMIT_EXCEEDED", "budget");

    expect(await samples("ledger_settlements_total")).toEqual([
      'ledger_settlements_total{result="applied"} 2',
      'ledger_settlements_total{result="poison"} 1',
    ]);
    expect(await samples("ledger_settlements_dead_lettered_total")).toContain(
      'ledger_settlements_dead_lettered_total{reason="user_mismatch"} 1',
    );
    expect(await samples("ledger_credits_charged_total")).toEqual(["ledger_credits_charged_total 7"]);
    expect(await samples("ledger_late_captures_total")).toEqual(["ledger_late_captures_total 1"]);
    expect(await samples("ledger_outgoing_payments_total")).toEqual(['ledger_outgoing_payments_total{rail="x402",settlement="settled"} 1']);
    expect(await samples("ledger_outgoing_payments_micro_usd_total")).toEqual([
      'ledger_outgoing_payments_micro_usd_total{rail="x402",settlement="settled"} 2500',
    ]);
    expect(await samples("ledger_platform_losses_total")).toEqual(['ledger_platform_losses_total{reason="paid_attempt_released"} 1']);
    expect(await samples("ledger_platform_losses_micro_usd_total")).toEqual([
      'ledger_platform_losses_micro_usd_total{reason="paid_attempt_released"} 2500',
    ]);
    expect(await samples("ledger_store_identity_conflict")).toEqual(["ledger_store_identity_conflict 1"]);
    expect(await samples("ledger_holds_expired_total")).toEqual(["ledger_holds_expired_total 3"]);
    expect(await samples("ledger_executions_abandoned_total")).toEqual(["ledger_executions_abandoned_total 1"]);
    expect(await samples("ledger_executions_indeterminate")).toEqual(["ledger_executions_indeterminate 2"]);
    expect(await samples("ledger_top_ups_total")).toEqual(['ledger_top_ups_total{result="credited"} 1']);
    expect(await samples("ledger_top_up_credits_total")).toEqual(["ledger_top_up_credits_total 5000"]);
    expect(await samples("ledger_spend_refusals_total")).toEqual([
      'ledger_spend_refusals_total{code="SPEND_LIMIT_EXCEEDED",limit="budget"} 1',
    ]);

    metrics.storeIdentityConflict(false);
    expect(await samples("ledger_store_identity_conflict")).toEqual(["ledger_store_identity_conflict 0"]);
  });
});
